/**
 * The repository paths a Markdown document cites: link targets, and code spans that read as a
 * path (`packages/core/src/x.ts`, `test/suite/`). URLs, URL paths (`/v1/orders`), package specifiers
 * (`@bnpl-kit/core/node`), shell text and placeholders (`<adapter>`, `$SANDBOX`, `…`) are not paths.
 * Files a run writes (data directories, build output, test output) are not cited as repository files.
 */

/** Top-level folders of the repository: a code span starting with one is a path even without an extension. */
const TOP_LEVEL = [
  'packages',
  'apps',
  'docs',
  'contract-tests',
  'tools',
  'scripts',
  'bench',
  '.changeset',
  '.ci',
];

/** A path-like text ends in one of these when it names a file. */
const FILE_EXTENSION = /\.(ts|tsx|mts|mjs|cjs|js|json|md|yaml|yml|sql|png|html|css|sh)$/;

/** What a run writes, never part of the repository. */
const GENERATED = /(^|\/)(node_modules|dist|\.data|\.next|test-output|scratch|coverage)(\/|$)/;

const PATH_LIKE = /^[\w.-]+(\/[\w.@-]+)*\/?$/;

function candidate(raw: string): string | undefined {
  // `market.ts:365-442` cites lines of a file; `docs/errors.md#code` an anchor of one.
  const text = raw
    .trim()
    .replace(/:\d[\d-]*$/, '')
    .replace(/#.*$/, '');
  if (text === '' || !text.includes('/') || !PATH_LIKE.test(text)) return undefined;
  if (GENERATED.test(text)) return undefined;
  // `DATA_DIR/keys.json`: a variable's value, not a folder of the repository.
  if (text.split('/').some((segment) => /^[A-Z][A-Z0-9_]+$/.test(segment))) return undefined;
  const first = text.split('/')[0] ?? '';
  if (TOP_LEVEL.includes(first) || FILE_EXTENSION.test(text)) return text;
  return undefined;
}

export function citedPaths(markdown: string): string[] {
  const found = new Set<string>();
  // Fenced blocks are commands and code, whose paths belong to their own tests.
  const prose = markdown.replace(/^```[\s\S]*?^```/gm, '');
  for (const match of prose.matchAll(/\]\(([^)\s]+)\)/g)) {
    const target = match[1] ?? '';
    if (/^[a-z]+:/i.test(target) || target.startsWith('#')) continue;
    const path = candidate(target);
    if (path) found.add(path);
  }
  for (const match of prose.matchAll(/`([^`\n]+)`/g)) {
    // `./x.js`: an import specifier, relative to a module, not to the document.
    if (match[1]?.startsWith('./') || match[1]?.startsWith('../')) continue;
    const path = candidate(match[1] ?? '');
    if (path) found.add(path);
  }
  return [...found];
}

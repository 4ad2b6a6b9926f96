/**
 * README code is what integrators copy: no TypeScript non-null assertion (`value!`) in any README's
 * ts code block, so no example hides a missing configuration value from the compiler. A block whose
 * first line names a file next to the README (`// lib/market.ts`) shows that file exactly, so the
 * copy cannot drift from the code the tests run.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../src/workspace.js';

function readmes(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    if (entry.name === 'node_modules' || entry.name.startsWith('.')) return [];
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return readmes(path);
    return entry.name === 'README.md' ? [path] : [];
  });
}

function nonNullAssertions(code: string): string[] {
  const file = ts.createSourceFile('block.tsx', code, ts.ScriptTarget.Latest, true, ts.ScriptKind.TSX);
  const found: string[] = [];
  const visit = (node: ts.Node) => {
    if (ts.isNonNullExpression(node)) found.push(node.getText(file));
    ts.forEachChild(node, visit);
  };
  visit(file);
  return found;
}

const blocks = readmes(REPO_ROOT).flatMap((path) =>
  [...readFileSync(path, 'utf8').matchAll(/```(?:ts|tsx|typescript)\n([\s\S]*?)```/g)].map((m, i) => ({
    readme: path,
    where: `${relative(REPO_ROOT, path)} block ${i + 1}`,
    code: m[1] ?? '',
  })),
);

/** `// lib/market.ts` on a block's first line: the file it claims to show, relative to the README. */
function claimedFile(code: string): { name: string; shown: string } | undefined {
  const match = /^\/\/ ([\w.@[\]/-]+\.(?:ts|tsx|mts|js|mjs))\n/.exec(code);
  return match?.[1] ? { name: match[1], shown: code.slice(match[0].length) } : undefined;
}

/** Files a README must show whole (its own app's code, so the walkthrough is the code). */
const MUST_SHOW: Record<string, string[]> = {
  'apps/nextjs-example/README.md': [
    'app/bnpl/[...path]/route.ts',
    'lib/market.ts',
    'lib/requests.ts',
    'lib/process-wide.ts',
    'app/readyz/route.ts',
    'instrumentation.ts',
  ],
};

describe('README code blocks', () => {
  it('finds the READMEs', () => {
    expect(blocks.length).toBeGreaterThan(10);
  });

  it('have no non-null assertion', () => {
    const offenders = blocks.flatMap(({ where, code }) =>
      nonNullAssertions(code).map((text) => `${where}: ${text}`),
    );
    expect(offenders).toEqual([]);
  });

  it('show the files they name exactly', () => {
    const shown = blocks.flatMap(({ readme, where, code }) => {
      const claim = claimedFile(code);
      const path = claim && join(dirname(readme), claim.name);
      // A file the README only proposes (Pages Router's route in the Next.js README) is not checked.
      return claim && path && existsSync(path) ? [{ where, name: claim.name, shown: claim.shown, path }] : [];
    });
    expect(shown.length).toBeGreaterThanOrEqual(Object.values(MUST_SHOW).flat().length);
    for (const { where, name, shown: text, path } of shown) {
      expect(text, `${where} shows ${name}: copy the file into the README again`).toBe(
        readFileSync(path, 'utf8'),
      );
    }
  });

  it('show every file of their app they must', () => {
    for (const [readme, files] of Object.entries(MUST_SHOW)) {
      const named = blocks
        .filter((block) => relative(REPO_ROOT, block.readme) === readme)
        .map((block) => claimedFile(block.code)?.name);
      expect(named, readme).toEqual(expect.arrayContaining(files));
    }
  });
});

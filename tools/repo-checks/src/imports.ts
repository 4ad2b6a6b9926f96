/** Every module specifier a TypeScript file imports (static, re-export, dynamic), by file. */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';
import { REPO_ROOT } from './workspace.js';

export interface ImportSite {
  /** Relative to the repository root. */
  file: string;
  specifier: string;
}

/** Every TypeScript source under `dir` (absolute paths; dependencies and build output left out). */
export function typeScriptFiles(dir: string): string[] {
  let entries: import('node:fs').Dirent[];
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch {
    return [];
  }
  return entries.flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory())
      return ['node_modules', 'dist', '.next'].includes(entry.name) ? [] : typeScriptFiles(path);
    return /\.(ts|tsx|mts)$/.test(entry.name) && !entry.name.endsWith('.d.ts') ? [path] : [];
  });
}

/**
 * The modules a file's import and export declarations name only as `import type` / `export type`:
 * erased at build, so they load nothing at run time.
 */
function typeOnlySpecifiers(path: string, source: string): Set<string> {
  const file = ts.createSourceFile(path, source, ts.ScriptTarget.Latest, false);
  const typeOnly = new Set<string>();
  const loaded = new Set<string>();
  for (const statement of file.statements) {
    if (!ts.isImportDeclaration(statement) && !ts.isExportDeclaration(statement)) continue;
    const specifier = statement.moduleSpecifier;
    if (specifier === undefined || !ts.isStringLiteral(specifier)) continue;
    const erased = ts.isImportDeclaration(statement)
      ? statement.importClause?.isTypeOnly === true
      : statement.isTypeOnly;
    (erased ? typeOnly : loaded).add(specifier.text);
  }
  return new Set([...typeOnly].filter((specifier) => !loaded.has(specifier)));
}

/**
 * The imports of every TypeScript file under `dir` (relative to the repository root). With
 * `typeOnly: false`, without the modules a file names only in `import type`/`export type`: what
 * it loads when it runs.
 */
export function importsUnder(dir: string, options: { typeOnly?: boolean } = {}): ImportSite[] {
  return typeScriptFiles(join(REPO_ROOT, dir)).flatMap((path) => {
    const file = relative(REPO_ROOT, path);
    const source = readFileSync(path, 'utf8');
    const erased = options.typeOnly === false ? typeOnlySpecifiers(path, source) : undefined;
    // preProcessFile reads imports without type-checking: fast enough to run over the whole tree.
    const { importedFiles } = ts.preProcessFile(source, true, true);
    return importedFiles
      .filter(({ fileName }) => !erased?.has(fileName))
      .map(({ fileName }) => ({ file, specifier: fileName }));
  });
}

/**
 * README code is what integrators copy: no TypeScript non-null assertion (`value!`) in any README's
 * ts code block, so no example hides a missing configuration value from the compiler.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
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
    where: `${relative(REPO_ROOT, path)} block ${i + 1}`,
    code: m[1] ?? '',
  })),
);

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
});

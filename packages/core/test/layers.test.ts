/**
 * Core's layers (docs/architecture.md, "Layers"): each uses only the ones before it. Same-layer
 * imports are fine (claims uses signature); an import from a later layer is not, and neither is a
 * circle through one. The entry files at the top of src/ (index.ts, wire.ts, …) may import anything.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const SRC = resolve(dirname(fileURLToPath(import.meta.url)), '../src');

/** Layer of each directory of src/ (and of errors.ts), lowest first, as architecture.md draws them. */
const LAYER: Record<string, number> = {
  // Below the models: helpers any layer may use.
  'errors.ts': 0,
  util: 0,
  observability: 0,
  models: 1,
  signature: 2,
  claims: 2,
  service: 2,
  offers: 3,
  market: 4,
  node: 5,
  // The documents are derived from the market's route table and the service's.
  openapi: 5,
  // The ./testing entry's helpers.
  testing: 6,
};

function files(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return files(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}

/** The layer name of a file under src/, or undefined for an entry file at the top. */
function areaOf(file: string): string | undefined {
  const [first, second] = relative(SRC, file).split('/');
  if (second !== undefined) return first;
  return first === 'errors.ts' ? first : undefined;
}

function relativeImports(file: string): string[] {
  const { importedFiles } = ts.preProcessFile(readFileSync(file, 'utf8'), true, true);
  return importedFiles
    .map(({ fileName }) => fileName)
    .filter((specifier) => specifier.startsWith('.'))
    .map((specifier) => resolve(dirname(file), specifier.replace(/\.js$/, '.ts')));
}

describe('core’s layers', () => {
  const all = files(SRC);

  it('gives every directory of src/ a layer', () => {
    const areas = new Set(all.map(areaOf).filter((area): area is string => area !== undefined));
    expect([...areas].filter((area) => LAYER[area] === undefined)).toEqual([]);
  });

  it('never imports from a later layer', () => {
    const upward = all.flatMap((file) => {
      const from = areaOf(file);
      if (from === undefined) return [];
      return relativeImports(file)
        .filter((target) => {
          const to = areaOf(target);
          return to !== undefined && LAYER[to]! > LAYER[from]!;
        })
        .map((target) => `${relative(SRC, file)} → ${relative(SRC, target)}`);
    });
    expect(upward).toEqual([]);
  });

  it('would catch an upward import (the check is not vacuous)', () => {
    const market = all.find((file) => areaOf(file) === 'market')!;
    const models = all.find((file) => areaOf(file) === 'models')!;
    expect(LAYER[areaOf(market)!]! > LAYER[areaOf(models)!]!).toBe(true);
    expect(relativeImports(join(SRC, 'market/route-table.ts')).some((t) => areaOf(t) === 'models')).toBe(
      true,
    );
  });
});

import { defineConfig, type Options } from 'tsup';

/** The build every published Node package shares: ESM + CJS + .d.ts, one file per entry. */
export function nodeLibrary(entries: string[], overrides: Options = {}) {
  return defineConfig({
    entry: entries.map((name) => `src/${name}.ts`),
    format: ['esm', 'cjs'],
    dts: true,
    sourcemap: true,
    clean: true,
    target: 'node20',
    ...overrides,
  });
}

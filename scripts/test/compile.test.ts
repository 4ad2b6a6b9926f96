import { statSync, utimesSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { compile } from '../compile.mjs';

const ENTRY = 'scripts/test/fixtures/compile-entry.ts';
const entryFile = fileURLToPath(new URL('./fixtures/compile-entry.ts', import.meta.url));

describe('compile', () => {
  it('bundles workspace sources, keeps import.meta.url, reuses the result until an input changes', async () => {
    const outfile = await compile(ENTRY, 'test-fixture');
    const compiled = (await import(`${pathToFileURL(outfile).href}?first`)) as {
      here: string;
      problem: string;
    };
    expect(compiled.here).toBe(pathToFileURL(entryFile).href);
    expect(compiled.problem).toBe('application/problem+json');

    const built = statSync(outfile).mtimeMs;
    expect(await compile(ENTRY, 'test-fixture')).toBe(outfile);
    expect(statSync(outfile).mtimeMs).toBe(built);

    const later = new Date(Date.now() + 5_000);
    utimesSync(entryFile, later, later);
    await compile(ENTRY, 'test-fixture');
    expect(statSync(outfile).mtimeMs).not.toBe(built);
  });
});

import { readFileSync, statSync, utimesSync, writeFileSync } from 'node:fs';
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

  it('compiles again in a checkout moved elsewhere: the bundle imports externals by absolute path', async () => {
    const outfile = await compile(ENTRY, 'test-fixture');
    const built = statSync(outfile).mtimeMs;
    // The manifest as a checkout at another path left it (the clone moved after its first start).
    const manifestFile = fileURLToPath(
      new URL('../../node_modules/.cache/bnpl-kit/test-fixture.inputs.json', import.meta.url),
    );
    const manifest = JSON.parse(readFileSync(manifestFile, 'utf8')) as { root: string };
    writeFileSync(manifestFile, JSON.stringify({ ...manifest, root: '/somewhere/else/bnpl-kit/' }));
    await compile(ENTRY, 'test-fixture');
    expect(statSync(outfile).mtimeMs).not.toBe(built);
  });
});

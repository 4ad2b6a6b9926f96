/**
 * Every committed document generates a client that type-checks strictly (issue 31: the sandbox admin
 * document once made openapi-typescript emit a type that referenced itself, TS2502): openapi-typescript
 * on each of docs/openapi/*.json, then `tsc --strict --noEmit` over the output.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import openapiTS, { astToString } from 'openapi-typescript';
import { afterAll, describe, expect, it } from 'vitest';

const dir = new URL('../openapi/', import.meta.url);
const names = readdirSync(dir).filter((name) => name.endsWith('.json'));
const out = mkdtempSync(join(tmpdir(), 'bnpl-openapi-clients-'));
afterAll(() => rmSync(out, { recursive: true, force: true }));

describe('docs/openapi: generated clients', () => {
  it('finds the four documents', () => {
    expect(names.sort()).toEqual([
      'market-basic.json',
      'market-data-sharing.json',
      'sandbox-admin.json',
      'service.json',
    ]);
  });

  it('generates types for every document that pass tsc --strict', { timeout: 120_000 }, async () => {
    const files: string[] = [];
    for (const name of names) {
      const document = JSON.parse(readFileSync(new URL(name, dir), 'utf8'));
      const file = join(out, name.replace(/\.json$/, '.ts'));
      writeFileSync(file, astToString(await openapiTS(document)));
      files.push(file);
    }
    const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
    const args = [
      tsc,
      '--strict',
      '--noEmit',
      '--skipLibCheck',
      '--target',
      'es2022',
      '--module',
      'esnext',
      ...files,
    ];
    let output = '';
    try {
      execFileSync(process.execPath, args, { encoding: 'utf8' });
    } catch (error) {
      output = String((error as { stdout?: string }).stdout ?? error);
    }
    expect(output).toBe('');
  });
});

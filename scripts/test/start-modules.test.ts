/**
 * `node scripts/start.mjs` loads what its configuration needs and nothing else: the chosen
 * framework only (not the other two and their dependencies), no msw behind the embedded sandbox,
 * no PGlite on PostgreSQL and no PostgreSQL driver on PGlite. Each server runs in a child process that records every module it
 * resolves (support/record-modules.mjs); the test reads back the packages loaded from node_modules
 * and the bundle's chunks (a few ESM packages, hono among them, are compiled into the bundle, so
 * the framework shows as its chunk: frameworks/hono.ts becomes chunks/hono-<hash>.mjs; so is
 * OpenTelemetry).
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const RECORDER = fileURLToPath(new URL('./support/record-modules.mjs', import.meta.url));
const DATABASE_URL = process.env.TEST_DATABASE_URL;
const scratch = mkdtempSync(join(tmpdir(), 'bnpl-start-modules-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** The npm packages among resolved module URLs: `…/node_modules/<name>/…` after the last one. */
function packagesIn(urls: string[]): Set<string> {
  const names = new Set<string>();
  for (const url of urls) {
    const at = url.lastIndexOf('/node_modules/');
    if (at < 0) continue;
    const name = /^((?:@[^/]+\/)?[^/.][^/]*)\//.exec(url.slice(at + '/node_modules/'.length))?.[1];
    if (name) names.add(name);
  }
  return names;
}

/** The bundle's chunks among resolved module URLs, by name without the hash: `hono`, `express`. */
function chunksIn(urls: string[]): Set<string> {
  const names = new Set<string>();
  for (const url of urls) {
    const name = /\/\.cache\/bnpl-kit\/[^/]+\/chunks\/(.+)-[A-Z0-9]+\.mjs$/.exec(url)?.[1];
    if (name) names.add(name);
  }
  return names;
}

/** Starts the basic server with `env`, waits until it listens, stops it; what it loaded. */
async function loadedBy(
  name: string,
  env: Record<string, string>,
): Promise<{ packages: Set<string>; chunks: Set<string> }> {
  const record = join(scratch, `${name}.txt`);
  const child = spawn(process.execPath, ['--import', RECORDER, 'scripts/start.mjs', 'basic'], {
    cwd: ROOT,
    env: {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      PORT: '0',
      DATA_DIR: join(scratch, `data-${name}`),
      RECORD_MODULES_TO: record,
      ...(DATABASE_URL && { DATABASE_URL, DATABASE_SCHEMA: 'start_modules_test' }),
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stderr!.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  const exited = new Promise<void>((resolve) => child.on('close', () => resolve()));
  try {
    await new Promise<void>((resolve, reject) => {
      createInterface({ input: child.stdout! }).on('line', (line) => {
        output += `${line}\n`;
        if (line.includes('"msg":"listening"')) resolve();
      });
      child.on('close', (code) => reject(new Error(`server exited (${code}) before listening:\n${output}`)));
    });
  } finally {
    child.kill('SIGTERM');
    await exited;
  }
  const urls = readFileSync(record, 'utf8').split('\n').filter(Boolean);
  return { packages: packagesIn(urls), chunks: chunksIn(urls) };
}

describe('what `node scripts/start.mjs` loads', () => {
  it('reads package and chunk names from module URLs', () => {
    const store = 'file:///repo/node_modules/.pnpm';
    const urls = [
      `${store}/express@5.3.0/node_modules/express/index.js`,
      `${store}/@electric-sql+pglite@0.4.6/node_modules/@electric-sql/pglite/dist/index.js`,
      'file:///repo/node_modules/.cache/bnpl-kit/basic-server/basic-server.mjs',
      'file:///repo/node_modules/.cache/bnpl-kit/basic-server/chunks/hono-BBIPBJH3.mjs',
      'file:///repo/node_modules/.cache/bnpl-kit/basic-server/chunks/sandbox-runtime-F66LS7Z6.mjs',
      'node:http',
    ];
    expect(packagesIn(urls)).toEqual(new Set(['express', '@electric-sql/pglite']));
    expect(chunksIn(urls)).toEqual(new Set(['hono', 'sandbox-runtime']));
  });

  it('FRAMEWORK=hono loads Hono, not Express or Koa, and no msw behind the embedded sandbox', async () => {
    const { packages, chunks } = await loadedBy('hono', { FRAMEWORK: 'hono' });
    expect(chunks).toContain('hono');
    expect(chunks).not.toContain('express');
    expect(chunks).not.toContain('koa');
    expect(packages).not.toContain('express');
    expect(packages).not.toContain('koa');
    // The embedded sandbox runs (default configuration), without msw.
    expect(chunks).toContain('sandbox-runtime');
    expect(packages).not.toContain('msw');
    // One database driver: PGlite's package, or the PostgreSQL executor's chunk (pg is compiled into it).
    if (DATABASE_URL) {
      expect(packages).not.toContain('@electric-sql/pglite');
      expect(chunks).toContain('pg');
    } else {
      expect(packages).toContain('@electric-sql/pglite');
      expect(chunks).not.toContain('pg');
    }
    // OpenTelemetry is compiled into the bundle (about 190 CommonJS files otherwise), and the OTLP
    // exporters load only with OTEL_EXPORTER_OTLP_ENDPOINT.
    expect([...packages].filter((name) => name.startsWith('@opentelemetry/'))).toEqual([]);
  });

  it('starts with OTEL_EXPORTER_OTLP_ENDPOINT set (the OTLP exporters, loaded on demand, work bundled)', async () => {
    // Nothing listens on the discard port: the exporters only need to be constructed to start.
    const { chunks } = await loadedBy('otlp', {
      FRAMEWORK: 'hono',
      OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:9',
    });
    expect(chunks).toContain('hono');
  });

  it('FRAMEWORK=express loads Express, not Koa or Hono', async () => {
    const { packages, chunks } = await loadedBy('express', { FRAMEWORK: 'express' });
    expect(packages).toContain('express');
    expect(chunks).toContain('express');
    expect(packages).not.toContain('koa');
    expect(chunks).not.toContain('koa');
    expect(chunks).not.toContain('hono');
  });
});

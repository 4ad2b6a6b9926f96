/**
 * How the store starts PGlite: the settings it starts with, and new databases loaded from the
 * initdb templates (`src/executor/pglite-template.ts`) rather than made by initdb each time.
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { pgliteTemplate, pgliteTemplatePath } from '../src/executor/pglite-template.js';
import { openStore, type Store } from '../src/index.js';

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function tempDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'bnpl-pglite-open-'));
  cleanups.push(() => rm(dir, { recursive: true, force: true }));
  return dir;
}

async function opened(store: Store): Promise<Store> {
  cleanups.push(() => store.close());
  return store;
}

const setting = async (store: Store, name: string) =>
  (await store.query<{ value: string }>('SELECT current_setting($1) AS value', [name])).rows[0]?.value;

describe('PGlite as the store opens it', () => {
  it('in memory: the kit database, small shared memory, migrated', async () => {
    const store = await opened(await openStore({ memory: true }));
    // PGlite 0.3 kept the kit's tables in template1; data directories made then still have them
    // there, so that is the database every PGlite store opens.
    expect((await store.query<{ db: string }>('SELECT current_database() AS db')).rows[0]?.db).toBe(
      'template1',
    );
    expect(await setting(store, 'shared_buffers')).toBe('16MB');
    expect(await setting(store, 'max_connections')).toBe('5');
    expect(await store.migrationsApplied()).toBe(true);
  });

  it('two in-memory stores loaded from the same template share nothing', async () => {
    const a = await opened(await openStore({ memory: true }));
    const b = await opened(await openStore({ memory: true }));
    await a.query('CREATE TABLE only_in_a (x int)');
    expect((await b.query("SELECT to_regclass('only_in_a') AS t")).rows[0]).toEqual({ t: null });
  });

  it('a new data directory is a whole cluster, keeps what was written, and opens again', async () => {
    const dataDir = join(await tempDir(), 'pglite');
    const first = await openStore({ dataDir });
    const databases = await first.query<{ datname: string }>('SELECT datname FROM pg_database ORDER BY 1');
    expect(databases.rows.map((r) => r.datname)).toEqual(['postgres', 'template0', 'template1']);
    await first.query('CREATE TABLE kept (x int)');
    await first.query('INSERT INTO kept VALUES (42)');
    await first.close();

    const second = await opened(await openStore({ dataDir }));
    expect((await second.query('SELECT x FROM kept')).rows).toEqual([{ x: 42 }]);
    expect(await setting(second, 'shared_buffers')).toBe('16MB');
  });
});

// Without a usable template the store runs initdb itself: seconds of CPU, so one case only.
describe('the template cache', () => {
  const before = process.env.BNPL_KIT_PGLITE_CACHE_DIR;
  afterEach(() => {
    if (before === undefined) delete process.env.BNPL_KIT_PGLITE_CACHE_DIR;
    else process.env.BNPL_KIT_PGLITE_CACHE_DIR = before;
  });

  it('is dropped, and the data directory is made by initdb instead', { timeout: 180_000 }, async () => {
    process.env.BNPL_KIT_PGLITE_CACHE_DIR = await tempDir();
    const template = await pgliteTemplatePath('cluster');
    await writeFile(template, 'not a tarball');
    const dataDir = join(await tempDir(), 'pglite');

    const store = await opened(await openStore({ dataDir }));
    expect(await store.migrationsApplied()).toBe(true);
    expect(existsSync(template)).toBe(false);
  });

  it('is not built twice: while another process holds the build lock, this one waits for its file', async () => {
    process.env.BNPL_KIT_PGLITE_CACHE_DIR = await tempDir();
    const path = await pgliteTemplatePath('memory');
    await writeFile(`${path}.building`, '');
    const waiting = pgliteTemplate('memory');
    // The other process finishing: its tarball appears under the template's name.
    await writeFile(path, 'built elsewhere');
    expect(Buffer.from(await waiting).toString()).toBe('built elsewhere');
  });

  it('takes over a build lock whose process has died (a first start killed mid-build)', async () => {
    // The cluster template this one is made from, from the default cache (cheap: it exists by now),
    // so that the takeover builds only the in-memory template.
    const cluster = await pgliteTemplate('cluster');
    process.env.BNPL_KIT_PGLITE_CACHE_DIR = await tempDir();
    await writeFile(await pgliteTemplatePath('cluster'), new Uint8Array(cluster));
    const path = await pgliteTemplatePath('memory');
    // A pid no process has: the exited child's.
    const child = spawnSync(process.execPath, ['-e', '']);
    await writeFile(`${path}.building`, String(child.pid));
    // Waiting for the dead builder would never end; taking over builds the template here.
    const bytes = await pgliteTemplate('memory');
    expect(bytes.byteLength).toBeGreaterThan(1_000_000);
    expect(existsSync(`${path}.building`)).toBe(false);
    expect(existsSync(path)).toBe(true);
  });
});

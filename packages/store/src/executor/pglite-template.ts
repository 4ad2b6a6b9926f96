/**
 * Freshly initialised PGlite databases, kept as tarballs so that a new database loads one instead
 * of running initdb. PGlite 0.4's initdb runs in a second WebAssembly instance: ~7 s of CPU and
 * ~700 MB at its peak, once per machine, user and PGlite build; loading a tarball takes a fraction.
 *
 * - `cluster`: what initdb makes (template0, template1, postgres), for a new data directory.
 * - `memory`: the same with only template1, the database the kit uses: an in-memory store holds
 *   every file in memory, and 25 MB load faster than 40 (measured: 1.45 s and 220 MB against
 *   1.7 s and 285 MB of CPU and RSS to open).
 *
 * Cached in the temporary directory (per user) and in this process.
 */
import { createHash } from 'node:crypto';
import { mkdir, open, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { isAlive } from './data-dir-lock.js';
import { createPglite, PGLITE_DATABASE, PGLITE_START_PARAMS } from './pglite-settings.js';

export type PgliteTemplateKind = 'cluster' | 'memory';

/**
 * Changes whenever what initdb would produce can: the PGlite build (its JavaScript, which ships
 * with its WebAssembly) and the settings it starts with. A template PGlite refuses anyway is
 * dropped by `forgetPgliteTemplate`.
 */
function templateKey(): string {
  return createHash('sha256')
    .update(PGlite.toString())
    .update(JSON.stringify([PGLITE_DATABASE, PGLITE_START_PARAMS]))
    .digest('hex')
    .slice(0, 16);
}

/**
 * Per user, and only trusted when this user owns it: a tarball someone else left is not loaded.
 * `node:os` is imported here, on first use, not at the top: the store also runs on Cloudflare
 * Workers (pg over cloudflare:sockets), whose nodejs_compat has no `node:os`, and a bundler hoists a
 * module's static imports to the top of the bundle even when the module itself is loaded lazily.
 */
async function cacheDir(): Promise<string> {
  const chosen = process.env.BNPL_KIT_PGLITE_CACHE_DIR?.trim();
  if (chosen) return chosen;
  const { tmpdir } = await import('node:os');
  return join(tmpdir(), `bnpl-kit-pglite-${process.getuid?.() ?? 'user'}`);
}

export async function pgliteTemplatePath(kind: PgliteTemplateKind): Promise<string> {
  return join(await cacheDir(), `${kind}-${templateKey()}.tar`);
}

const delay = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * A tarball as PGlite's `loadDataDir` reads it (`arrayBuffer()` and `type`). Not a `Blob`: Node
 * 20 copies a Blob's bytes slowly, about 1 s each way for the 40 MB cluster on the shared machine.
 */
export function tarballSource(bytes: ArrayBuffer): Blob {
  return { type: 'application/x-tar', size: bytes.byteLength, arrayBuffer: async () => bytes } as Blob;
}

/**
 * The bytes as an ArrayBuffer of their own. A file this size comes back from `readFile` in a
 * buffer of its own already; copying it anyway cost ~185 ms of CPU per 40 MB template (measured on
 * the shared machine), at every PGlite open. A Buffer from Node's small-buffer pool is copied.
 */
export function wholeArrayBuffer(bytes: Buffer): ArrayBuffer {
  const { buffer, byteOffset, byteLength } = bytes;
  if (byteOffset === 0 && byteLength === buffer.byteLength && buffer instanceof ArrayBuffer) return buffer;
  return buffer.slice(byteOffset, byteOffset + byteLength) as ArrayBuffer;
}

async function readCached(path: string): Promise<ArrayBuffer | undefined> {
  try {
    const info = await stat(path);
    const uid = process.getuid?.();
    if (uid !== undefined && info.uid !== uid) return undefined;
    return wholeArrayBuffer(await readFile(path));
  } catch {
    return undefined;
  }
}

async function dump(db: PGlite): Promise<ArrayBuffer> {
  try {
    return await (await db.dumpDataDir('none')).arrayBuffer();
  } finally {
    await db.close();
  }
}

async function build(kind: PgliteTemplateKind): Promise<ArrayBuffer> {
  if (kind === 'cluster') return dump(await createPglite('memory://'));
  const db = await createPglite('memory://', { loadDataDir: tarballSource(await pgliteTemplate('cluster')) });
  // Connected to template1, so the other two can go; template0 only once it is no template. One
  // statement at a time: DROP DATABASE refuses to run inside a multi-statement string.
  for (const sql of [
    'DROP DATABASE postgres',
    "UPDATE pg_database SET datistemplate = false WHERE datname = 'template0'",
    'DROP DATABASE template0',
    'CHECKPOINT',
  ]) {
    await db.exec(sql);
  }
  return dump(db);
}

async function store(path: string, bytes: ArrayBuffer): Promise<void> {
  try {
    await mkdir(await cacheDir(), { recursive: true, mode: 0o700 });
    // Written aside and renamed: another process reading the cache sees all of it or nothing.
    const partial = `${path}.${process.pid}.${Date.now()}.partial`;
    await writeFile(partial, new Uint8Array(bytes), { mode: 0o600 });
    await rename(partial, path);
  } catch {
    // A read-only or full temporary directory: this process still has the template in memory.
  }
}

/** Longer than any build takes on a busy machine: a lock this old is stale whoever holds it. */
const STALE_BUILD_MS = 5 * 60_000;

/**
 * One builder per template across processes (test workers starting together would each build one:
 * ~700 MB apiece). Resolves to a release function, or undefined while another process builds. A
 * cache directory that cannot be written builds without a lock. The lock holds its builder's pid,
 * so a build interrupted by Ctrl-C or a kill frees the lock at once instead of after STALE_BUILD_MS.
 */
async function lockBuild(path: string): Promise<(() => Promise<void>) | undefined> {
  const lock = `${path}.building`;
  const release = () => rm(lock, { force: true });
  try {
    await mkdir(await cacheDir(), { recursive: true, mode: 0o700 });
    const handle = await open(lock, 'wx', 0o600);
    try {
      await handle.writeFile(String(process.pid));
    } finally {
      await handle.close();
    }
    return release;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') return async () => {};
    const holder = await readFile(lock, 'utf8').then(
      (text) => Number.parseInt(text, 10),
      () => Number.NaN,
    );
    const age = await stat(lock).then(
      (info) => Date.now() - info.mtimeMs,
      () => 0,
    );
    const dead = Number.isInteger(holder) && holder > 0 && holder !== process.pid && !isAlive(holder);
    if (dead || age > STALE_BUILD_MS) await release();
    return undefined;
  }
}

async function cachedOrBuilt(kind: PgliteTemplateKind, path: string): Promise<ArrayBuffer> {
  for (;;) {
    const cached = await readCached(path);
    if (cached !== undefined) return cached;
    const release = await lockBuild(path);
    if (release === undefined) {
      // Another process is building it: the cache file appears when it is done.
      await delay(250);
      continue;
    }
    try {
      // It may have appeared between the read above and taking the lock.
      const appeared = await readCached(path);
      if (appeared !== undefined) return appeared;
      const made = await build(kind);
      await store(path, made);
      return made;
    } finally {
      await release();
    }
  }
}

/**
 * By kind and cache directory setting: a process that changes BNPL_KIT_PGLITE_CACHE_DIR reads the
 * other cache. (Keyed synchronously, so that concurrent first calls share one read or build.)
 */
const memo = new Map<string, Promise<ArrayBuffer>>();
const memoKey = (kind: PgliteTemplateKind) =>
  `${process.env.BNPL_KIT_PGLITE_CACHE_DIR?.trim() ?? ''}\0${kind}`;

/** The template's tarball: from this process, else from the cache, else made now (and cached). */
export function pgliteTemplate(kind: PgliteTemplateKind): Promise<ArrayBuffer> {
  const key = memoKey(kind);
  let pending = memo.get(key);
  if (pending === undefined) {
    pending = pgliteTemplatePath(kind).then((path) => cachedOrBuilt(kind, path));
    memo.set(key, pending);
    pending.catch(() => memo.delete(key));
  }
  return pending;
}

/**
 * Lets this process's copy go (the file stays cached): a server creates one data directory, and
 * 40 MB held for nothing would show in its idle RSS.
 */
export function releasePgliteTemplate(kind: PgliteTemplateKind): void {
  memo.delete(memoKey(kind));
}

/** Drops a template PGlite refused to start from, so that the next call makes a new one. */
export async function forgetPgliteTemplate(kind: PgliteTemplateKind): Promise<void> {
  memo.delete(memoKey(kind));
  await rm(await pgliteTemplatePath(kind), { force: true });
}

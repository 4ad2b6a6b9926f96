/**
 * A freshly initialised PGlite data directory, kept as a tarball so that new databases (every
 * in-memory store, and a data directory's first start) load it instead of running initdb. PGlite
 * 0.4's initdb runs in a second WebAssembly instance: ~7 s of CPU and ~700 MB at its peak, where
 * loading the tarball takes a fraction of that. It is made once per machine, user and PGlite build,
 * then cached in the temporary directory (and in this process).
 */
import { createHash } from 'node:crypto';
import { mkdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { PGLITE_DATABASE, PGLITE_START_PARAMS, pgliteOptions } from './pglite-settings.js';

/**
 * Changes whenever what initdb would produce can: the PGlite build (its JavaScript, which ships
 * with its WebAssembly) and the settings it starts with.
 */
function templateKey(): string {
  return createHash('sha256')
    .update(PGlite.toString())
    .update(JSON.stringify([PGLITE_DATABASE, PGLITE_START_PARAMS]))
    .digest('hex')
    .slice(0, 16);
}

/** Per user, and only trusted when this user owns it: a tarball someone else left is not loaded. */
function cacheDir(): string {
  return process.env.BNPL_KIT_PGLITE_CACHE_DIR?.trim() || join(tmpdir(), `bnpl-kit-pglite-${process.getuid?.() ?? 'user'}`);
}

export function pgliteTemplatePath(): string {
  return join(cacheDir(), `initdb-${templateKey()}.tar`);
}

let memo: Promise<Blob> | undefined;

async function readCached(path: string): Promise<Blob | undefined> {
  try {
    const info = await stat(path);
    const uid = process.getuid?.();
    if (uid !== undefined && info.uid !== uid) return undefined;
    return new Blob([await readFile(path)]);
  } catch {
    return undefined;
  }
}

async function build(path: string): Promise<Blob> {
  const db = await PGlite.create('memory://', pgliteOptions());
  let tar: Blob;
  try {
    tar = await db.dumpDataDir('none');
  } finally {
    await db.close();
  }
  try {
    await mkdir(cacheDir(), { recursive: true, mode: 0o700 });
    // Written aside and renamed: another process reading the cache sees all of it or nothing.
    const partial = `${path}.${process.pid}.${Date.now()}.partial`;
    await writeFile(partial, Buffer.from(await tar.arrayBuffer()), { mode: 0o600 });
    await rename(partial, path);
  } catch {
    // A read-only or full temporary directory: this process still has the template in memory.
  }
  return tar;
}

/** The template tarball: from this process, else from the cache, else made now (and cached). */
export function pgliteTemplate(): Promise<Blob> {
  if (memo === undefined) {
    const path = pgliteTemplatePath();
    memo = readCached(path).then((cached) => cached ?? build(path));
    memo.catch(() => {
      memo = undefined;
    });
  }
  return memo;
}

/** Drops the template (after PGlite refused to start from it) so the next call makes a new one. */
export async function forgetPgliteTemplate(): Promise<void> {
  memo = undefined;
  await rm(pgliteTemplatePath(), { force: true });
}

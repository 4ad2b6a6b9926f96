/**
 * Issue 20 §4: the embedded store on a full disk answers `503 store_unavailable` (not a 500, and
 * not a 502 blaming the service), says not ready while the disk has no room, and recovers when
 * space frees. The end-to-end case needs a small file system of its own: a tmpfs, mounted when the
 * tests run as root with the right to mount (CI containers as a rule); the translation is checked
 * everywhere.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { KitError } from '@bnpl-kit/core';
import { afterAll, describe, expect, it } from 'vitest';
import { isDiskFailure, MIN_FREE_BYTES, translatePgliteFault } from '../src/executor/pglite-faults.js';
import { openStore } from '../src/index.js';

describe('which PGlite failures are its disk failing', () => {
  const failing = [
    { code: '53100', message: 'could not extend file "base/1/16491": No space left on device' },
    { code: '53000', message: 'insufficient resources' },
    { code: '58030', message: 'could not write to file "pg_wal/xlogtemp": I/O error' },
    { code: 'ENOSPC', message: 'ENOSPC: no space left on device, write' },
    { code: 'EIO', message: 'EIO: i/o error, write' },
  ];
  it.each(failing)('$code is 503 store_unavailable, without the path', ({ code, message }) => {
    const err = Object.assign(new Error(message), { code });
    expect(isDiskFailure(err)).toBe(true);
    const translated = translatePgliteFault(err) as KitError;
    expect(translated).toBeInstanceOf(KitError);
    expect(translated.toProblem()).toMatchObject({ status: 503, code: 'store_unavailable' });
    expect(JSON.stringify(translated.toProblem())).not.toMatch(/base\/1|pg_wal|No space/);
  });

  it.each(['23505', '42601', '40001', undefined])('leaves %s alone', (code) => {
    const err = Object.assign(new Error('x'), code === undefined ? {} : { code });
    expect(translatePgliteFault(err)).toBe(err);
  });
});

/** A fresh 64 MiB tmpfs, or undefined when this process may not mount one. */
function mountSmallDisk(): string | undefined {
  if (process.platform !== 'linux' || process.getuid?.() !== 0) return undefined;
  const dir = mkdtempSync(join(tmpdir(), 'bnpl-small-disk-'));
  const mounted = spawnSync('mount', ['-t', 'tmpfs', '-o', 'size=64m', 'tmpfs', dir]);
  if (mounted.status === 0) return dir;
  rmSync(dir, { recursive: true, force: true });
  return undefined;
}

const smallDisk = mountSmallDisk();

describe.runIf(smallDisk !== undefined)('the embedded store on a full disk', () => {
  const disk = smallDisk!;
  afterAll(() => {
    spawnSync('umount', [disk]);
    rmSync(disk, { recursive: true, force: true });
  });

  it('answers 503 store_unavailable and is not ready while full, and recovers when space frees', async () => {
    const store = await openStore({ dataDir: join(disk, 'pglite') });
    try {
      expect(await store.ping()).toBe(true);
      await store.query('CREATE TABLE fill (x text)');
      // Leave less room than a checkpoint needs: the next writes cannot extend their files.
      const filler = join(disk, 'filler');
      const avail = Number(
        spawnSync('df', ['--output=avail', '-B1', disk]).stdout.toString().trim().split('\n').at(-1),
      );
      expect(spawnSync('fallocate', ['-l', String(avail - 1_000_000), filler]).status).toBe(0);

      let failure: unknown;
      for (let round = 0; round < 100 && failure === undefined; round++) {
        failure = await store
          .query(`INSERT INTO fill SELECT repeat('x', 1000) FROM generate_series(1, 2000)`)
          .then(
            () => undefined,
            (e: unknown) => e,
          );
      }
      expect(failure).toBeInstanceOf(KitError);
      expect((failure as KitError).toProblem()).toMatchObject({ status: 503, code: 'store_unavailable' });
      // About 1 MB is left, below the room readiness asks for.
      expect(MIN_FREE_BYTES).toBeGreaterThan(1_000_000);
      expect(await store.ping()).toBe(false);

      await rm(filler);
      expect(await store.ping()).toBe(true);
      await store.query(`INSERT INTO fill VALUES ('after')`);
    } finally {
      await store.close();
    }
  });
});

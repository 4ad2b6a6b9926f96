/**
 * `@bnpl-kit/store/testing`'s PgBouncer starter, without a PgBouncer: the ini it writes forwards to
 * the given server, and a pooler that cannot start rejects with the reason and leaves no temporary
 * directory behind. (Started for real, it carries pooler.test.ts and the store suites' pgbouncer
 * backend.)
 */
import { chmod, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { pgbouncerIni } from '../src/testing/pgbouncer.js';
import { startPgBouncer } from '../src/testing.js';

describe('pgbouncerIni', () => {
  it('forwards every database to the URL’s server as its user, with the pool mode and size asked for', () => {
    const ini = pgbouncerIni('postgres://app%40team:secret@db.internal:6543/shop', 7000, {
      poolMode: 'transaction',
      serverConnections: 2,
    });
    const lines = ini.split('\n');
    expect(lines).toContain('* = host=db.internal port=6543 user=app@team');
    expect(lines).toContain('listen_port = 7000');
    expect(lines).toContain('pool_mode = transaction');
    expect(lines).toContain('default_pool_size = 2');
    expect(ini).not.toContain('secret');
  });

  it('defaults to port 5432, user postgres and 4 server connections; extra settings win', () => {
    const ini = pgbouncerIni('postgres://localhost/test', 7001, {
      poolMode: 'session',
      settings: { max_client_conn: '20', ignore_startup_parameters: 'options' },
    });
    const lines = ini.split('\n');
    expect(lines).toContain('* = host=localhost port=5432 user=postgres');
    expect(lines).toContain('default_pool_size = 4');
    expect(lines).toContain('max_client_conn = 20');
    expect(lines).not.toContain('max_client_conn = 500');
    expect(lines).toContain('ignore_startup_parameters = options');
  });
});

describe('startPgBouncer when the pooler cannot start', () => {
  // os.tmpdir() follows TMPDIR, so the starter's temporary directory lands where the test can look.
  let scratch: string;
  let previousTmpdir: string | undefined;
  beforeEach(async () => {
    scratch = await mkdtemp(join(tmpdir(), 'bnpl-pgbouncer-test-'));
    previousTmpdir = process.env.TMPDIR;
    process.env.TMPDIR = scratch;
  });
  afterEach(async () => {
    if (previousTmpdir === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = previousTmpdir;
    await rm(scratch, { recursive: true, force: true });
  });

  it('rejects naming a binary that does not exist, and removes its directory', async () => {
    const bin = join(scratch, 'no-such-pgbouncer');
    await expect(
      startPgBouncer('postgres://postgres@127.0.0.1:5432/test', { poolMode: 'transaction', bin }),
    ).rejects.toThrow(`could not run pgbouncer (${bin})`);
    expect(await readdir(scratch)).toEqual([]);
  });

  it('rejects when the binary exits before listening, and removes its directory', async () => {
    await expect(
      startPgBouncer('postgres://postgres@127.0.0.1:5432/test', { poolMode: 'transaction', bin: 'false' }),
    ).rejects.toThrow('pgbouncer exited (1) before listening');
    expect(await readdir(scratch)).toEqual([]);
  });

  /** A stand-in binary that finds its port taken `taken` times (as PgBouncer logs it), then starts. */
  async function portTakenBinary(taken: number): Promise<{ bin: string; starts: () => Promise<number> }> {
    const bin = join(scratch, 'fake-pgbouncer');
    const count = join(scratch, 'starts');
    await writeFile(
      bin,
      [
        '#!/bin/sh',
        `n=$(($(cat ${count} 2>/dev/null || echo 0) + 1)); echo $n > ${count}`,
        `if [ $n -le ${taken} ]; then echo "ERROR bind(): Address already in use" >&2; exit 1; fi`,
        'echo "LOG process up: PgBouncer (fake)" >&2',
        'exec sleep 60',
        '',
      ].join('\n'),
    );
    await chmod(bin, 0o755);
    return { bin, starts: async () => Number(await readFile(count, 'utf8')) };
  }

  it('tries again on another port when a client socket took the one it picked', async () => {
    const { bin, starts } = await portTakenBinary(2);
    const pooler = await startPgBouncer('postgres://postgres@127.0.0.1:5432/test', {
      poolMode: 'transaction',
      bin,
    });
    await pooler.stop();
    expect(await starts()).toBe(3);
    // The failed attempts' directories are gone; the counter and the binary are the test's own.
    expect((await readdir(scratch)).sort()).toEqual(['fake-pgbouncer', 'starts']);
  });

  it('gives up after five attempts, with the reason', async () => {
    const { bin, starts } = await portTakenBinary(99);
    await expect(
      startPgBouncer('postgres://postgres@127.0.0.1:5432/test', { poolMode: 'transaction', bin }),
    ).rejects.toThrow(/before listening:[\s\S]*Address already in use/);
    expect(await starts()).toBe(5);
  });
});

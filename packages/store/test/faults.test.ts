/**
 * Issue 10, reproductions 1 and 6 at the store: a PostgreSQL backend terminated while a client is
 * checked out for a transaction neither kills the process (every client has an `error` listener)
 * nor surfaces as a 500 (it is `store_unavailable`, 503); the pool replaces the connection; a
 * database that accepts TCP and never answers fails within the connect timeout.
 */

import type { AddressInfo } from 'node:net';
import { createServer, type Server, type Socket } from 'node:net';
import { KitError } from '@bnpl-kit/core';
import { afterEach, describe, expect, it } from 'vitest';
import { isUnavailable, translateFault } from '../src/executor/pg-faults.js';
import { openStore } from '../src/index.js';
import { backends, unique, withAdminClient } from './helpers/backends.js';

describe('which pg failures are the database being unavailable', () => {
  it('translates connection loss, shutdown and timeouts to store_unavailable, and nothing else', () => {
    const terminated = Object.assign(new Error('terminating connection due to administrator command'), {
      code: '57P01',
    });
    for (const err of [
      terminated,
      new Error('Connection terminated unexpectedly'),
      new Error('timeout exceeded when trying to connect'),
      Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:1'), { code: 'ECONNREFUSED' }),
      Object.assign(new Error('canceling statement due to statement timeout'), { code: '57014' }),
    ]) {
      const translated = translateFault(err, 'postgres://db/x');
      expect(translated).toBeInstanceOf(KitError);
      expect((translated as KitError).toProblem()).toMatchObject({ status: 503, code: 'store_unavailable' });
      expect(JSON.stringify((translated as KitError).toProblem())).not.toContain('administrator');
    }
    const unique = Object.assign(new Error('duplicate key'), { code: '23505' });
    expect(translateFault(unique, 'x')).toBe(unique);
    expect(isUnavailable(Object.assign(new Error('invalid byte sequence'), { code: '22021' }))).toBe(false);
  });
});

const postgres = backends.filter((b) => b.name !== 'pglite');

describe.each(postgres)('on $name', (backend) => {
  it('survives its backend being terminated mid-transaction: 503, process alive, pool recovers', async () => {
    const db = await backend.open();
    try {
      const { store } = db;
      let caught: unknown;
      try {
        await store.transaction(async (tx) => {
          const { rows } = await tx.query<{ pid: number }>('SELECT pg_backend_pid() AS pid');
          await withAdminClient((admin) => admin.query('SELECT pg_terminate_backend($1)', [rows[0]!.pid]));
          // The client is checked out and idle between statements when its socket closes: without
          // a listener the `error` event would crash the process before this query runs.
          await tx.query('SELECT 1');
        });
      } catch (error) {
        caught = error;
      }
      expect(caught).toBeInstanceOf(KitError);
      expect((caught as KitError).code).toBe('store_unavailable');
      // The broken client was discarded; the next transaction gets a fresh connection.
      const id = unique('ord');
      await store.transaction(async (tx) => {
        await tx.insertOrder({
          id,
          referenceId: id,
          totalAmount: { value: '1', currency: 'VND' },
          orderLines: [],
          status: 'PENDING',
          requestFingerprint: 'fp',
        });
      });
      expect((await store.findOrderById(id))?.id).toBe(id);
    } finally {
      await db.close();
    }
  });
});

describe('a database that accepts connections and never answers', () => {
  const sockets: Socket[] = [];
  let server: Server | undefined;
  afterEach(async () => {
    for (const s of sockets) s.destroy();
    await new Promise((resolve) => server?.close(resolve));
  });

  it('fails openStore within the connect timeout with store_unavailable', async () => {
    server = createServer((socket) => void sockets.push(socket));
    await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    const started = Date.now();
    const error = await openStore({
      databaseUrl: `postgres://u@127.0.0.1:${port}/db`,
      connectTimeoutMs: 300,
    }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(KitError);
    expect((error as KitError).code).toBe('store_unavailable');
    expect((error as KitError).message).toContain(`127.0.0.1:${port}`);
    expect(Date.now() - started).toBeLessThan(5_000);
  });
});

/**
 * `SqlExecutor` on PGlite (Postgres compiled to WebAssembly, in this process): the default when no
 * `DATABASE_URL` is given. PGlite is one connection, so its queries and transactions run one at a
 * time; that is also why only one process may open a data directory (see `data-dir-lock.ts`).
 */
import { mkdir } from 'node:fs/promises';
import type { PGlite, Results, Transaction } from '@electric-sql/pglite';
import { acquireDataDirLock } from './data-dir-lock.js';
import { freeBytes, MIN_FREE_BYTES, translatePgliteFault } from './pglite-faults.js';
import { openPglite } from './pglite-open.js';
import { scopedTransactionClient } from './transaction-scope.js';
import type { QueryResult, SqlExecutor, TransactionClient } from './types.js';

export type PgliteExecutorOptions =
  | { memory: true; schema?: string | undefined }
  | { dataDir: string; schema?: string | undefined };

function toResult<R>(result: Results): QueryResult<R> {
  // PGlite reports affectedRows for writes and 0 for SELECT; pg's rowCount covers both.
  return { rows: result.rows as R[], rowCount: Math.max(result.affectedRows ?? 0, result.rows.length) };
}

function wrap(db: PGlite | Transaction): TransactionClient {
  return {
    query: async <R>(sql: string, params?: readonly unknown[]) => {
      try {
        return toResult<R>(await db.query(sql, params as unknown[] | undefined));
      } catch (err) {
        throw translatePgliteFault(err);
      }
    },
    exec: async (sql: string) => {
      try {
        await db.exec(sql);
      } catch (err) {
        throw translatePgliteFault(err);
      }
    },
  };
}

export async function createPgliteExecutor(options: PgliteExecutorOptions): Promise<SqlExecutor> {
  let releaseLock: (() => Promise<void>) | undefined;
  let db: PGlite;
  if ('dataDir' in options) {
    await mkdir(options.dataDir, { recursive: true });
    releaseLock = await acquireDataDirLock(options.dataDir);
    try {
      db = await openPglite(options.dataDir);
    } catch (err) {
      await releaseLock();
      throw err;
    }
  } else {
    db = await openPglite(undefined);
  }
  if (options.schema !== undefined) {
    // One connection, so a session-level search_path is the whole database's.
    await db.exec(`CREATE SCHEMA IF NOT EXISTS ${options.schema}; SET search_path TO ${options.schema}`);
  }

  const outer = wrap(db);
  let closed = false;
  return {
    dialect: 'pglite',
    location: 'dataDir' in options ? options.dataDir : 'memory://',
    query: outer.query,
    async writable() {
      if (!('dataDir' in options)) return true;
      const free = await freeBytes(options.dataDir);
      return free === undefined || free >= MIN_FREE_BYTES;
    },
    transaction: <T>(work: (tx: TransactionClient) => Promise<T>) =>
      db
        .transaction(async (tx) => {
          // PGlite's own `tx` keeps working after a ROLLBACK (outside any transaction): ours does not.
          const scoped = scopedTransactionClient(wrap(tx));
          try {
            return await work(scoped);
          } finally {
            scoped.end();
          }
        })
        // BEGIN and COMMIT run inside PGlite: a disk failure there is a 503 too.
        .catch((err: unknown) => {
          throw translatePgliteFault(err);
        }),
    async close() {
      if (closed) return;
      closed = true;
      try {
        await db.close();
      } finally {
        await releaseLock?.();
      }
    },
  };
}

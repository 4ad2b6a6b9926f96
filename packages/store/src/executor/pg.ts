/** `SqlExecutor` on a `pg` connection pool, for a real PostgreSQL (`DATABASE_URL`). */

import type { MarketLogger } from '@bnpl-kit/core';
import pg from 'pg';
import { isUnavailable, translateFault } from './pg-faults.js';
import { preparedName } from './prepared.js';
import { type ScopedTransactionClient, scopedTransactionClient } from './transaction-scope.js';
import type { QueryResult, SqlExecutor, TransactionClient } from './types.js';

export interface PgExecutorOptions {
  connectionString: string;
  /** Schema to put first on the search_path of every connection (created by the migrations). */
  schema?: string | undefined;
  /** Pool size; pg's default is 10. */
  max?: number | undefined;
  /** How long to wait for a new connection (TCP + startup); default 5000. pg's default waits forever. */
  connectTimeoutMs?: number | undefined;
  /** Longest a statement may run (server `statement_timeout`, and a client-side read timeout); default 15000. */
  statementTimeoutMs?: number | undefined;
  logger: MarketLogger;
}

/** A registered hot statement goes as a named prepared statement, anything else as given. */
function statement(sql: string, params: readonly unknown[] | undefined): pg.QueryConfig {
  const name = preparedName(sql);
  return name === undefined
    ? { text: sql, values: params as unknown[] | undefined }
    : { name, text: sql, values: params as unknown[] | undefined };
}

function toResult<R>(result: pg.QueryResult): QueryResult<R> {
  return { rows: result.rows as R[], rowCount: result.rowCount ?? result.rows.length };
}

/** The URL without its password, for logs. */
export function redactDatabaseUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '***';
    return parsed.toString();
  } catch {
    return 'postgres://(unparseable url)';
  }
}

export const DEFAULT_CONNECT_TIMEOUT_MS = 5_000;
export const DEFAULT_STATEMENT_TIMEOUT_MS = 15_000;

export function createPgExecutor(options: PgExecutorOptions): SqlExecutor {
  const location = redactDatabaseUrl(options.connectionString);
  const statementTimeoutMs = options.statementTimeoutMs ?? DEFAULT_STATEMENT_TIMEOUT_MS;
  const pool = new pg.Pool({
    connectionString: options.connectionString,
    max: options.max,
    // Without these a database that accepts TCP and never answers hangs start-up and every request.
    connectionTimeoutMillis: options.connectTimeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS,
    statement_timeout: statementTimeoutMs,
    // The client-side guard for a connection that stops answering mid-query (no RST ever comes).
    query_timeout: statementTimeoutMs + 1_000,
    keepAlive: true,
    // A startup parameter rather than a `SET` after connect: it applies before any query can run.
    ...(options.schema === undefined ? {} : { options: `-c search_path=${options.schema}` }),
  });
  // An idle client losing its connection emits on the pool; unhandled, that would crash the process.
  pool.on('error', (err) => options.logger.error({ err: err.message }, 'idle database connection failed'));
  // A client checked out for a transaction is not the pool's to watch: while it waits between two
  // statements, a terminated backend emits `error` on the client itself, and an `error` event
  // without a listener kills the process. Every client gets one for its whole life; the failure
  // also reaches the pending or next query, which answers 503 and the client is discarded.
  pool.on('connect', (client) => {
    client.on('error', (err) =>
      options.logger.warn({ err: err.message }, 'database connection lost while checked out'),
    );
  });
  const fault = (err: unknown) => translateFault(err, location);

  /**
   * A pooled client whose transaction has begun. An idle connection the server ended may still be
   * in the pool (its `error` event not yet seen); nothing has run on it, so a failed BEGIN is
   * retried on another connection instead of failing the request.
   */
  async function begin(): Promise<pg.PoolClient> {
    for (let attempt = 0; ; attempt++) {
      let client: pg.PoolClient;
      try {
        client = await pool.connect();
      } catch (err) {
        throw fault(err);
      }
      try {
        await client.query('BEGIN');
        return client;
      } catch (err) {
        client.release(true);
        if (attempt >= 2 || !isUnavailable(err)) throw fault(err);
      }
    }
  }

  /** A transaction's client, usable until its work settles (see `transaction-scope.ts`). */
  function transactionClient(client: pg.PoolClient): ScopedTransactionClient {
    const run = async (sql: string, params?: readonly unknown[]) => {
      try {
        return await client.query(statement(sql, params));
      } catch (err) {
        throw fault(err);
      }
    };
    return scopedTransactionClient({
      query: async <R>(sql: string, params?: readonly unknown[]) => toResult<R>(await run(sql, params)),
      exec: async (sql: string) => {
        await run(sql);
      },
    });
  }

  let closed = false;
  return {
    dialect: 'postgres',
    location,

    async query<R>(sql: string, params?: readonly unknown[]) {
      try {
        return toResult<R>(await pool.query(statement(sql, params)));
      } catch (err) {
        throw fault(err);
      }
    },

    async transaction<T>(work: (tx: TransactionClient) => Promise<T>): Promise<T> {
      const client = await begin();
      let broken = false;
      const tx = transactionClient(client);
      try {
        let result: T;
        try {
          result = await work(tx);
        } finally {
          tx.end();
        }
        try {
          await client.query('COMMIT');
        } catch (err) {
          throw fault(err);
        }
        return result;
      } catch (err) {
        try {
          await client.query('ROLLBACK');
        } catch {
          // The connection is unusable (e.g. dropped): destroy it instead of returning it to the pool.
          broken = true;
        }
        throw err;
      } finally {
        client.release(broken);
      }
    },

    async close() {
      if (closed) return;
      closed = true;
      await pool.end();
    },
  };
}

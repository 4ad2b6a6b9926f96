/** `SqlExecutor` on a `pg` connection pool, for a real PostgreSQL (`DATABASE_URL`). */

import type { MarketLogger } from '@bnpl-kit/core';
import pg from 'pg';
import type { QueryResult, SqlExecutor, TransactionClient } from './types.js';

export interface PgExecutorOptions {
  connectionString: string;
  /** Schema to put first on the search_path of every connection (created by the migrations). */
  schema?: string | undefined;
  /** Pool size; pg's default is 10. */
  max?: number | undefined;
  logger: MarketLogger;
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

export function createPgExecutor(options: PgExecutorOptions): SqlExecutor {
  const pool = new pg.Pool({
    connectionString: options.connectionString,
    max: options.max,
    // A startup parameter rather than a `SET` after connect: it applies before any query can run.
    ...(options.schema === undefined ? {} : { options: `-c search_path=${options.schema}` }),
  });
  // An idle client losing its connection emits on the pool; unhandled, that would crash the process.
  pool.on('error', (err) => options.logger.error({ err: err.message }, 'idle database connection failed'));

  let closed = false;
  return {
    dialect: 'postgres',
    location: redactDatabaseUrl(options.connectionString),

    async query<R>(sql: string, params?: readonly unknown[]) {
      return toResult<R>(await pool.query(sql, params as unknown[] | undefined));
    },

    async transaction<T>(work: (tx: TransactionClient) => Promise<T>): Promise<T> {
      const client = await pool.connect();
      let broken = false;
      try {
        await client.query('BEGIN');
        const result = await work({
          query: async <R>(sql: string, params?: readonly unknown[]) =>
            toResult<R>(await client.query(sql, params as unknown[] | undefined)),
          exec: async (sql: string) => {
            await client.query(sql);
          },
        });
        await client.query('COMMIT');
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

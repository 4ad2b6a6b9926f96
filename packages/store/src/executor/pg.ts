/** `SqlExecutor` on a `pg` connection pool, for a real PostgreSQL (`DATABASE_URL`). */

import type { MarketLogger } from '@bnpl-kit/core';
import pg from 'pg';
import { redactDatabaseUrl } from './database-url.js';
import { isConnectionLost, translateFault } from './pg-faults.js';
import { queryWithOpening } from './pg-opening-query.js';
import {
  isPreparedStatementClash,
  type PoolerMode,
  planSession,
  preparedStatementClash,
  type SessionPlan,
  startupParameters,
  transactionOpening,
} from './pg-session.js';
import { preparedName } from './prepared.js';
import { type ScopedTransactionClient, TransactionEndedError } from './transaction-scope.js';
import type { QueryResult, SqlExecutor } from './types.js';

export interface PgExecutorOptions {
  connectionString: string;
  /** Schema to put first on the search_path (created by the migrations). */
  schema?: string | undefined;
  /** Pool size; pg's default is 10. */
  max?: number | undefined;
  /** How long to wait for a new connection (TCP + startup); default 5000. pg's default waits forever. */
  connectTimeoutMs?: number | undefined;
  /** Longest a statement may run (server `statement_timeout`, and a client-side read timeout); default 15000. */
  statementTimeoutMs?: number | undefined;
  /** How session state reaches the server (see `pg-session.ts`); default `auto`, probed at start-up. */
  pooler?: PoolerMode | undefined;
  /**
   * Send the hot statements as named prepared statements. Default: only when the session carries
   * state (no transaction-mode pooler). PgBouncer 1.21+ with `max_prepared_statements` can take them.
   */
  preparedStatements?: boolean | undefined;
  logger: MarketLogger;
}

function toResult<R>(result: pg.QueryResult): QueryResult<R> {
  return { rows: result.rows as R[], rowCount: result.rowCount ?? result.rows.length };
}

export const DEFAULT_CONNECT_TIMEOUT_MS = 5_000;
export const DEFAULT_STATEMENT_TIMEOUT_MS = 15_000;

export function createPgExecutor(options: PgExecutorOptions): SqlExecutor {
  const location = redactDatabaseUrl(options.connectionString);
  const statementTimeoutMs = options.statementTimeoutMs ?? DEFAULT_STATEMENT_TIMEOUT_MS;
  const connectTimeoutMs = options.connectTimeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS;
  const fault = (err: unknown) => translateFault(err, location);

  /** The pool and how to use it, once `planSession` has said whether the session carries state. */
  interface Connection {
    pool: pg.Pool;
    /** The statements that open a transaction: `BEGIN`, or `BEGIN` and its `SET LOCAL`s. */
    opening: readonly string[];
    sessionSettings: boolean;
  }
  let namedStatements = options.preparedStatements;

  function createPool(sessionSettings: boolean): pg.Pool {
    const pool = new pg.Pool({
      connectionString: options.connectionString,
      max: options.max,
      // Without these a database that accepts TCP and never answers hangs start-up and every request.
      connectionTimeoutMillis: connectTimeoutMs,
      // The client-side guard for a connection that stops answering mid-query (no RST ever comes).
      query_timeout: statementTimeoutMs + 1_000,
      keepAlive: true,
      // Startup parameters rather than a `SET` after connect: they apply before any query can run.
      ...(sessionSettings ? startupParameters(options.schema, statementTimeoutMs) : {}),
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
    return pool;
  }

  let connection: Connection | undefined;
  let connecting: Promise<Connection> | undefined;
  let closed = false;
  async function open(): Promise<Connection> {
    let plan: SessionPlan;
    try {
      plan = await planSession(options.pooler ?? 'auto', {
        connectionString: options.connectionString,
        schema: options.schema,
        statementTimeoutMs,
        connectTimeoutMs,
      });
    } catch (err) {
      connecting = undefined;
      throw fault(err);
    }
    if (closed) throw new Error(`The database connection to ${location} is closed`);
    options.logger.info({ location, sessionSettings: plan.sessionSettings }, plan.reason);
    namedStatements ??= plan.sessionSettings;
    connection = {
      pool: createPool(plan.sessionSettings),
      opening: plan.sessionSettings ? ['BEGIN'] : transactionOpening(options.schema, statementTimeoutMs),
      sessionSettings: plan.sessionSettings,
    };
    return connection;
  }
  function ready(): Promise<Connection> {
    if (connecting === undefined) connecting = open();
    return connecting;
  }

  /** A registered hot statement goes as a named prepared statement (when safe), anything else as given. */
  function statement(sql: string, params: readonly unknown[] | undefined): pg.QueryConfig {
    const name = namedStatements === true ? preparedName(sql) : undefined;
    return name === undefined
      ? { text: sql, values: params as unknown[] | undefined }
      : { name, text: sql, values: params as unknown[] | undefined };
  }

  /** A failure of `sql`, translated; a prepared statement clash also turns named statements off. */
  function failure(err: unknown, sql: string): unknown {
    if (namedStatements === true && preparedName(sql) !== undefined && isPreparedStatementClash(err)) {
      namedStatements = false;
      options.logger.error(
        { err: (err as Error).message },
        'prepared statements clash: sending them unnamed',
      );
      return preparedStatementClash(err);
    }
    return fault(err);
  }

  /**
   * A transaction's client, usable until its work settles (see `transaction-scope.ts`). One object
   * with its methods on a class, not six closures: every webhook with a hook builds one.
   *
   * BEGIN is not sent on its own: it goes with the transaction's first statement, in the same
   * exchange (pg-opening-query.ts), and a transaction that runs no statement sends nothing at all.
   */
  class PgTransactionClient implements ScopedTransactionClient {
    private open = true;
    /** Whether the opening statements have been sent. */
    begun = false;
    /** Whether `client` went back to the pool already (destroyed after failing). */
    released = false;
    /** Whether the COMMIT went with the first statement (`queryAlone`). */
    committed = false;
    constructor(
      public client: pg.PoolClient,
      private readonly connection: Connection,
    ) {}
    async query<R>(sql: string, params?: readonly unknown[]): Promise<QueryResult<R>> {
      return toResult<R>(await this.run(sql, params));
    }
    /**
     * The transaction's one statement, sent with its opening and its COMMIT in one exchange (a
     * statement that needs a transaction only for its `SET LOCAL`s, behind a transaction-mode pooler).
     */
    async queryAlone<R>(sql: string, params?: readonly unknown[]): Promise<QueryResult<R>> {
      if (this.begun) throw new Error('queryAlone must be the first statement of its transaction');
      const result = toResult<R>(await this.run(sql, params, false, ['COMMIT']));
      this.committed = true;
      return result;
    }
    /** A script of several statements: pg answers with one result per statement, none read. */
    async exec(sql: string): Promise<void> {
      await this.run(sql, undefined, true);
    }
    end(): void {
      this.open = false;
    }
    /** `closing` goes with the statement only when it is the first (`queryAlone`). */
    private async run(
      sql: string,
      params: readonly unknown[] | undefined,
      script = false,
      closing: readonly string[] = [],
    ): Promise<pg.QueryResult> {
      if (!this.open) throw new TransactionEndedError();
      try {
        if (this.begun) return await this.client.query(statement(sql, params));
        this.begun = true;
        return await this.first(sql, params, script, closing);
      } catch (err) {
        throw failure(err, sql);
      }
    }
    /**
     * The first statement, with the opening ones. The pooled connection may have been dead already
     * (the server ended it while it sat idle, its `error` event not seen yet): nothing of the
     * transaction can have committed, so the statement goes again on another connection.
     */
    private async first(
      sql: string,
      params: readonly unknown[] | undefined,
      script: boolean,
      closing: readonly string[],
    ): Promise<pg.QueryResult> {
      for (let attempt = 0; ; attempt++) {
        try {
          if (!script)
            return await queryWithOpening(
              this.client,
              this.connection.opening,
              statement(sql, params),
              closing,
            );
          // A script of several statements cannot go in one extended-protocol exchange.
          await this.client.query(this.connection.opening.join('; '));
          return await this.client.query(sql);
        } catch (err) {
          if (attempt >= 2 || !isConnectionLost(err)) throw err;
          this.client.release(true);
          this.released = true;
          try {
            this.client = await this.connection.pool.connect();
          } catch (connectError) {
            // Nothing is open on any connection now: nothing to roll back, nothing to release.
            this.begun = false;
            throw fault(connectError);
          }
          this.released = false;
        }
      }
    }
  }

  async function transaction<T>(work: (tx: PgTransactionClient) => Promise<T>): Promise<T> {
    const c = connection ?? (await ready());
    let client: pg.PoolClient;
    try {
      client = await c.pool.connect();
    } catch (err) {
      throw fault(err);
    }
    let broken = false;
    const tx = new PgTransactionClient(client, c);
    try {
      let result: T;
      try {
        result = await work(tx);
      } finally {
        tx.end();
      }
      // Nothing was sent, or the COMMIT went with the statement: nothing left to commit.
      if (tx.begun && !tx.committed) {
        try {
          await tx.client.query('COMMIT');
        } catch (err) {
          throw fault(err);
        }
      }
      return result;
    } catch (err) {
      if (tx.begun) {
        try {
          await tx.client.query('ROLLBACK');
        } catch {
          // The connection is unusable (e.g. dropped): destroy it instead of returning it to the pool.
          broken = true;
        }
      }
      throw err;
    } finally {
      if (!tx.released) tx.client.release(broken);
    }
  }

  return {
    dialect: 'postgres',
    location,

    async query<R>(sql: string, params?: readonly unknown[]) {
      const c = connection ?? (await ready());
      // Without session settings a lone statement needs its own transaction to get them: one
      // exchange all the same (BEGIN, SET LOCALs, the statement, COMMIT, one Sync).
      if (!c.sessionSettings) return transaction((tx) => tx.queryAlone<R>(sql, params));
      try {
        return toResult<R>(await c.pool.query(statement(sql, params)));
      } catch (err) {
        throw failure(err, sql);
      }
    },

    transaction,

    async close() {
      if (closed) return;
      closed = true;
      const c = connection ?? (await connecting?.catch(() => undefined));
      await c?.pool.end();
    },
  };
}

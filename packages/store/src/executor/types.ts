/**
 * The smallest SQL surface the store needs, implemented twice (pg pool, PGlite) so every repository
 * runs the same SQL on both. Parameters are positional (`$1`); JSON goes in as a string cast with
 * `::jsonb`, and anything whose JS type differs between the drivers (bigint, count) is cast in SQL.
 */

export interface QueryResult<R> {
  rows: R[];
  /** Rows returned, or rows affected by an INSERT/UPDATE/DELETE without RETURNING. */
  rowCount: number;
}

export interface Queryable {
  query<R = Record<string, unknown>>(sql: string, params?: readonly unknown[]): Promise<QueryResult<R>>;
}

/** A connection inside an open transaction. */
export interface TransactionClient extends Queryable {
  /** Runs a script of several statements without parameters (migrations). */
  exec(sql: string): Promise<void>;
}

export type Dialect = 'postgres' | 'pglite';

export interface SqlExecutor extends Queryable {
  readonly dialect: Dialect;
  /** Where the data lives, safe to log (password removed from URLs). */
  readonly location: string;
  /**
   * Runs `work` in one transaction on one dedicated connection: COMMIT when it resolves, ROLLBACK
   * when it throws (the error is rethrown). Not re-entrant.
   */
  transaction<T>(work: (tx: TransactionClient) => Promise<T>): Promise<T>;
  /** False when writes cannot succeed now (an embedded database's disk is full); for readiness. */
  writable?(): Promise<boolean>;
  close(): Promise<void>;
}

/**
 * `openStore` picks the backend: a PostgreSQL pool when a database URL is given, else PGlite in a
 * data directory (data survives a restart), or PGlite in memory for tests. It migrates before
 * returning, so a store you get is ready to use.
 */
import { resolve } from 'node:path';
import { type MarketLogger, silentLogger } from '@bnpl-kit/core';
import type { PoolerMode } from './executor/pg-session.js';
import type { SqlExecutor } from './executor/types.js';
import type { JobRetryPolicy } from './records.js';
import { DEFAULT_JOB_RETRY } from './repositories/jobs/backoff.js';
import { createStore, type Store } from './store.js';

export const DEFAULT_DATA_DIR = '.data/pglite';

export interface OpenStoreOptions {
  /** `postgres://…` (usually `DATABASE_URL`). Set and non-empty → PostgreSQL through a `pg` pool. */
  databaseUrl?: string | undefined;
  /** PGlite data directory when there is no database URL; default `.data/pglite` under the cwd. */
  dataDir?: string | undefined;
  /** PGlite in memory (tests): nothing is written to disk. Ignored when `databaseUrl` is set. */
  memory?: boolean | undefined;
  /**
   * Schema for the kit's tables, created if missing (e.g. `bnpl`); default: the connection's
   * search_path (normally `public`). A plain identifier: letters, digits, underscores.
   */
  schema?: string | undefined;
  /** pg pool size (default 10). */
  poolSize?: number | undefined;
  /** PostgreSQL: how long to wait for a connection, in ms (default 5000). */
  connectTimeoutMs?: number | undefined;
  /** PostgreSQL: longest a statement may run, in ms (default 15000). */
  statementTimeoutMs?: number | undefined;
  /**
   * PostgreSQL: how session state reaches the server. `auto` (default) probes at start-up whether
   * the startup parameters hold (a direct connection) or a pooler refuses or drops them; then the
   * statement timeout and schema go with every transaction (`SET LOCAL`) instead. `none` and
   * `transaction` skip the probe. See docs/operations.md, "Connection poolers".
   */
  pooler?: PoolerMode | undefined;
  /**
   * PostgreSQL: send the hot statements as named prepared statements. Default: only when no
   * transaction-mode pooler was found (PgBouncer 1.21+ with `max_prepared_statements` takes them).
   */
  preparedStatements?: boolean | undefined;
  /** Pino or anything with `info/warn/error(obj, msg)`. Silent by default. */
  logger?: MarketLogger | undefined;
  /** Apply pending migrations before returning (default true). */
  migrate?: boolean | undefined;
  /** Clock for job due times and leases; default the database's `now()`. For tests. */
  now?: (() => Date) | undefined;
  /** Backoff of `failJob` when the caller gives no retry time. */
  jobRetry?: Partial<JobRetryPolicy> | undefined;
  /**
   * Refuse the store itself inside `store.transaction` (nested transactions, `store.…` where
   * `tx.…` was meant). Default: on, except for PostgreSQL under `NODE_ENV=production` on a Node
   * older than 24, where the async context it needs slows every promise of the process.
   */
  guardNestedUse?: boolean | undefined;
}

const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]{0,62}$/;

export async function openStore(options: OpenStoreOptions = {}): Promise<Store> {
  const logger = options.logger ?? silentLogger;
  const schema = options.schema;
  if (schema !== undefined && !IDENTIFIER.test(schema)) {
    // It is spliced into SQL and into the connection's startup options.
    throw new Error(`Invalid schema name ${JSON.stringify(schema)}: use letters, digits and underscores`);
  }
  const databaseUrl = options.databaseUrl?.trim();

  let executor: SqlExecutor;
  if (databaseUrl) {
    // Loaded only here, like PGlite below: the PostgreSQL driver (`pg` and its dependencies, about
    // a tenth of a PGlite server's start-up CPU) is not needed on PGlite.
    const { createPgExecutor } = await import('./executor/pg.js');
    executor = createPgExecutor({
      connectionString: databaseUrl,
      schema,
      max: options.poolSize,
      connectTimeoutMs: options.connectTimeoutMs,
      statementTimeoutMs: options.statementTimeoutMs,
      pooler: options.pooler,
      preparedStatements: options.preparedStatements,
      logger,
    });
  } else {
    // Loaded only here: PGlite (WebAssembly Postgres, ~40 MB resident) is not needed on PostgreSQL.
    const { createPgliteExecutor } = await import('./executor/pglite.js');
    executor =
      options.memory === true
        ? await createPgliteExecutor({ memory: true, schema })
        : await createPgliteExecutor({ dataDir: resolve(options.dataDir ?? DEFAULT_DATA_DIR), schema });
  }

  const store = createStore({
    executor,
    logger,
    schema,
    guardNestedUse: options.guardNestedUse,
    jobs: { now: options.now, retry: { ...DEFAULT_JOB_RETRY, ...options.jobRetry } },
  });
  try {
    if (options.migrate !== false) {
      const result = await store.migrate();
      logger.info(
        { dialect: executor.dialect, location: executor.location, applied: result.applied },
        'database ready',
      );
    }
  } catch (err) {
    await store.close().catch(() => {});
    throw err;
  }
  return store;
}

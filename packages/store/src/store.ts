/**
 * The store: the kit's `MarketStore` plus what the reference servers need, on one `SqlExecutor`.
 * Every repository is written against `Queryable`, so the same functions run on the pool (outside
 * a transaction) and on the transaction's own connection (`tx`).
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import type { MarketLogger, MarketStore, MarketTransaction } from '@bnpl-kit/core';
import type { Dialect, Queryable, SqlExecutor } from './executor/types.js';
import { type MigrationResult, migrate, migrationsApplied } from './migrations/migrate.js';
import { guardNestedUseByDefault } from './nested-use-guard.js';
import type { JobContext, JobOps } from './repositories/jobs.js';
import type { OrderReads, OrderTransactionOps } from './repositories/orders.js';
import type { StaleOrder } from './repositories/reconciliation.js';
import type { PruneOptions, PruneResult } from './repositories/retention.js';
import type { UserOps } from './repositories/users.js';
import { OPERATION_GROUPS, transactionOperations } from './transaction-operations.js';

/** What the worker's periodic jobs run (`@bnpl-kit/store/worker`: reconciliation and retention). */
export interface MaintenanceOps {
  /**
   * Orders not final whose status and last reconciliation are both older than `staleForMs`, oldest
   * first, at most `limit`; each is stamped as reconciled now in the same statement (SKIP LOCKED),
   * so concurrent callers get disjoint orders.
   */
  claimStaleOrders(options: { staleForMs: number; limit: number }): Promise<StaleOrder[]>;
  /**
   * Deletes done jobs (and failed ones of `options.failedKinds`: periodic runs) and processed
   * webhook event IDs older than `olderThanMs`.
   */
  pruneFinished(olderThanMs: number, options?: PruneOptions): Promise<PruneResult>;
}

/** Everything that works the same on the store and inside a transaction. */
export interface StoreOperations extends OrderReads, UserOps, JobOps, MaintenanceOps {
  /** Raw SQL, for what the repositories do not cover. */
  query: Queryable['query'];
}

/**
 * The `tx` of `store.transaction`: the kit's `MarketTransaction` (locked order reads, status
 * changes, processed event IDs) plus every store operation, all on the transaction's connection, so
 * a job enqueued here commits or rolls back with the status change.
 */
export interface StoreTransaction extends MarketTransaction, OrderTransactionOps, StoreOperations {
  applyWebhookEvent: StoreOperations['applyWebhookEvent'];
}

export interface Store extends MarketStore<StoreTransaction>, StoreOperations {
  applyWebhookEvent: StoreOperations['applyWebhookEvent'];
  readonly dialect: Dialect;
  /** Where the data lives, safe to log. */
  readonly location: string;
  /**
   * Runs `work` in one transaction: COMMIT when it resolves, ROLLBACK when it throws. Inside, use
   * only `tx`: calling the store itself there throws (on PGlite it would wait for the open
   * transaction forever, on PostgreSQL it would silently run outside it).
   */
  transaction<T>(work: (tx: StoreTransaction) => Promise<T>): Promise<T>;
  /** Applies pending migrations (`openStore` already did unless told not to). */
  migrate(): Promise<MigrationResult>;
  /** For `/readyz`: true when the database answers and (embedded) its disk has room to write. */
  ping(): Promise<boolean>;
  /** For `/readyz`: true when every migration this version knows is recorded. */
  migrationsApplied(): Promise<boolean>;
  /** Closes the pool or PGlite (and its data directory lock). Idempotent. */
  close(): Promise<void>;
}

export interface StoreContext {
  executor: SqlExecutor;
  logger: MarketLogger;
  jobs: JobContext;
  schema: string | undefined;
  /** Refuse the store inside its own transaction (see nested-use-guard.ts); default by runtime. */
  guardNestedUse?: boolean | undefined;
}

/** Every operation built at once: for the store itself, which builds them once. */
function operations(q: Queryable, jobs: JobContext): StoreOperations {
  return Object.assign({}, ...OPERATION_GROUPS.map((group) => group(q, jobs))) as StoreOperations;
}

/** Wraps a queryable so that it refuses to run while the current async context holds a transaction. */
function guarded(q: Queryable, openTransaction: AsyncLocalStorage<{ open: boolean }>): Queryable {
  return {
    query(sql, params) {
      if (openTransaction.getStore()?.open === true) {
        return Promise.reject(
          new Error('store called inside store.transaction(); use the `tx` passed to the callback instead'),
        );
      }
      return q.query(sql, params);
    },
  };
}

export function createStore(ctx: StoreContext): Store {
  const { executor } = ctx;
  const guard = ctx.guardNestedUse ?? guardNestedUseByDefault(executor.dialect);
  const openTransaction = guard ? new AsyncLocalStorage<{ open: boolean }>() : undefined;
  const outer = openTransaction ? guarded(executor, openTransaction) : executor;
  // A new `tx` for every transaction, never one per connection: a `tx` kept past its transaction
  // must not reach the next transaction on the same connection (the client refuses once it ended).
  const transactionOps = (client: Queryable): StoreTransaction =>
    transactionOperations<StoreTransaction>(client, ctx.jobs);

  return {
    ...operations(outer, ctx.jobs),
    dialect: executor.dialect,
    location: executor.location,

    transaction<T>(work: (tx: StoreTransaction) => Promise<T>): Promise<T> {
      if (openTransaction === undefined)
        return executor.transaction((client) => work(transactionOps(client)));
      if (openTransaction.getStore()?.open === true) {
        return Promise.reject(
          new Error('store.transaction() cannot be nested; use the `tx` you already have'),
        );
      }
      const state = { open: true };
      return openTransaction.run(state, () =>
        executor
          .transaction((client) => work(transactionOps(client)))
          .finally(() => {
            // Work the callback left running (not awaited) may use the store once this is over.
            state.open = false;
          }),
      );
    },

    migrate: () => migrate(executor, { schema: ctx.schema, logger: ctx.logger }),

    async ping() {
      try {
        await outer.query('SELECT 1');
        if (executor.writable !== undefined && !(await executor.writable())) {
          ctx.logger.warn(
            { location: executor.location },
            'database cannot write: its disk is (nearly) full',
          );
          return false;
        }
        return true;
      } catch (err) {
        ctx.logger.warn({ err: (err as Error).message }, 'database ping failed');
        return false;
      }
    },

    async migrationsApplied() {
      try {
        return await migrationsApplied(outer);
      } catch (err) {
        ctx.logger.warn({ err: (err as Error).message }, 'could not read the migrations table');
        return false;
      }
    },

    close: () => executor.close(),
  };
}

export {
  DEFAULT_CONNECT_TIMEOUT_MS,
  DEFAULT_STATEMENT_TIMEOUT_MS,
  redactDatabaseUrl,
} from './executor/pg.js';
export { isUnavailable as isStoreUnavailable } from './executor/pg-faults.js';
export type { Dialect, Queryable, QueryResult, SqlExecutor, TransactionClient } from './executor/types.js';
export type { StoreLogger } from './logger.js';
export { EMBEDDED_MIGRATIONS } from './migrations/embedded.js';
export { type MigrationResult, migrationChecksum } from './migrations/migrate.js';
export type { Migration } from './migrations/types.js';
export { DEFAULT_DATA_DIR, type OpenStoreOptions, openStore } from './open-store.js';
export * from './records.js';
export { DEFAULT_JOB_RETRY, type JobOps, jobBackoffMs } from './repositories/jobs.js';
export type { OrderReads, OrderTransactionOps } from './repositories/orders.js';
export {
  type SandboxRecord,
  type SandboxRecordChange,
  type SandboxRecordRepository,
  sandboxRecords,
} from './repositories/sandbox-records.js';
export { hashSessionToken, type UserOps } from './repositories/users.js';
export type { Store, StoreOperations, StoreTransaction } from './store.js';

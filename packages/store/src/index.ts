/**
 * `@bnpl-kit/store`: Postgres persistence for the kit's store interfaces (PGlite when no
 * DATABASE_URL is given). Named exports only; tools/repo-checks pins the list.
 */

export type { SandboxRecord, SandboxRecordChange } from '@bnpl-kit/core/wire';
export { redactDatabaseUrl } from './executor/database-url.js';
export type { PoolerMode } from './executor/pg-session.js';
export { DEFAULT_DATA_DIR, type OpenStoreOptions, openStore } from './open-store.js';
export type {
  ClaimJobOptions,
  FailJobOptions,
  Job,
  JobRetryPolicy,
  JobStatus,
  NewJob,
  NewUser,
  OrderStatusHistoryEntry,
  RenewJobLeaseOptions,
  UserRecord,
  UserUpdate,
} from './records.js';
export type { JobCounts, JobOps, RequeueResult } from './repositories/jobs.js';
export type { OrderReads, OrderTransactionOps } from './repositories/orders.js';
export type { StaleOrder } from './repositories/reconciliation.js';
export type { PruneOptions, PruneResult } from './repositories/retention.js';
export { type SandboxRecordRepository, sandboxRecords } from './repositories/sandbox-records.js';
export type { UserOps } from './repositories/users.js';
export type { MaintenanceOps, Store, StoreOperations, StoreTransaction } from './store.js';
export {
  type StoreUserHooks,
  type StoreUsers,
  type StoreUsersConfig,
  storeUsers,
} from './user-hooks.js';

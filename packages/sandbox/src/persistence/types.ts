/**
 * Where a persistent sandbox keeps its records. `@bnpl-kit/store`'s `sandboxRecords(store, namespace)`
 * is one (PGlite or PostgreSQL); anything with the same two methods will do. The contract is
 * core's (`@bnpl-kit/core/wire`), shared with the store, so the sandbox never imports a database
 * driver and in-memory use (tests, msw) stays as light as before.
 */
export type { SandboxRecord, SandboxRecordChange, SandboxRecordStore } from '@bnpl-kit/core/wire';

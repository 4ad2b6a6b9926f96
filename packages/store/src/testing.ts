/**
 * `@bnpl-kit/store/testing`: helpers for tests of an application on the store, such as a PgBouncer
 * of the test's own to run the store behind a transaction-mode pooler. Not for production code.
 */
export {
  PGBOUNCER_BIN,
  type PgBouncerOptions,
  type PgBouncerPoolMode,
  pgbouncerAvailable,
  type RunningPgBouncer,
  startPgBouncer,
} from './testing/pgbouncer.js';

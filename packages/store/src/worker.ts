/**
 * `@bnpl-kit/store/worker`: the durable job worker a market runs next to its market handler —
 * disbursement on readiness, reconciliation of orders whose webhooks never arrived, retention of
 * finished jobs and processed event IDs — with readiness and graceful drain helpers. Named exports
 * only; tools/repo-checks pins the list.
 */

export {
  DISBURSE_JOB,
  type DisbursementDeps,
  type DisbursementInvoiceSource,
  type DisbursePayload,
  disburseIdempotencyKey,
  enqueueDisbursement,
  runDisbursement,
} from './worker/disbursement.js';
export {
  checkReadiness,
  createDrain,
  type Drain,
  type DrainStep,
  drainOnSignals,
  type Readiness,
  type ReadinessInput,
  readinessResponse,
} from './worker/health.js';
export {
  createJobWorker,
  type JobRunContext,
  type JobRunner,
  type JobWorker,
  type JobWorkerOptions,
  type JobWorkerState,
  PermanentJobFailure,
  type StopOptions,
} from './worker/job-worker.js';
export { createMarketWorker, type MarketWorkerOptions } from './worker/market-worker.js';
export { WORKER_METRIC_NAMES } from './worker/metrics.js';
export { type PeriodicJob, periodicDedupeKey } from './worker/periodic.js';
export {
  type Correction,
  DEFAULT_RECONCILIATION,
  RECONCILE_JOB,
  RECONCILIATION_SOURCE_PREFIX,
  type ReconciliationDeps,
  type ReconciliationOptions,
  type ReconciliationRun,
  runReconciliation,
} from './worker/reconciliation.js';
export {
  DEFAULT_RETENTION,
  PRUNE_JOB,
  type RetentionOptions,
  retentionWindowMs,
  runRetention,
  WEBHOOK_REDELIVERY_SCHEDULE_MS,
  webhookReplayWindowMs,
} from './worker/retention.js';

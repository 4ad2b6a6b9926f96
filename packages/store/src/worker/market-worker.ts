/**
 * `createMarketWorker`: the worker a market runs next to its market handler, in one call. It runs
 * the disbursement jobs that readiness webhooks enqueue (data-sharing mode), reconciliation and
 * retention as periodic jobs, and any job kinds of the market's own.
 */
import {
  consoleLogger,
  createServiceClient,
  type IntegrationMode,
  type KitConfig,
  KitError,
  type MarketLogger,
  type ServiceClient,
} from '@bnpl-kit/core';
import type { Store } from '../store.js';
import {
  DISBURSE_JOB,
  type DisbursementInvoiceSource,
  type DisbursePayload,
  enqueueDisbursement,
  runDisbursement,
} from './disbursement.js';
import { createJobWorker, type JobRunner, type JobWorker, type JobWorkerOptions } from './job-worker.js';
import type { PeriodicJob } from './periodic.js';
import {
  DEFAULT_RECONCILIATION,
  RECONCILE_JOB,
  type ReconciliationOptions,
  runReconciliation,
} from './reconciliation.js';
import {
  DEFAULT_RETENTION,
  PRUNE_JOB,
  type RetentionOptions,
  retentionWindowMs,
  runRetention,
} from './retention.js';

export interface MarketWorkerOptions
  extends Pick<JobWorkerOptions, 'leaseMs' | 'concurrency' | 'minIdleMs' | 'maxIdleMs' | 'now' | 'workerId'> {
  store: Store;
  /**
   * The validated configuration (`loadConfig`), as `createMarket` takes it: the service client is
   * built from `serviceApiUrl` + `appApiKey`, and the integration mode and webhook tolerance are
   * read from it, and so are reconciliation's `RECONCILE_AFTER_MS` / `RECONCILE_EVERY_MS` and the
   * service client's `SERVICE_TIMEOUT_MS`. Explicit
   * `service` / `integrationMode` / `reconciliation` override.
   */
  config?: Pick<KitConfig, 'integrationMode' | 'serviceApiUrl' | 'appApiKey' | 'webhookToleranceSeconds'> &
    Partial<Pick<KitConfig, 'reconcileAfterMs' | 'reconcileEveryMs' | 'serviceTimeoutMs'>>;
  service?: ServiceClient;
  /** `data-sharing`: disbursement jobs run, and reconciliation disburses orders found ready. */
  integrationMode?: IntegrationMode;
  /** Default: core's `consoleLogger`, as `createMarket`'s (pass the app's logger to both). */
  logger?: MarketLogger;
  /** The same source as the market's `getDisbursementInvoice` hook, so job and endpoint agree. */
  getDisbursementInvoice?: DisbursementInvoiceSource;
  /** On by default; `false` turns it off (e.g. when another service of yours reconciles). */
  reconciliation?: ReconciliationOptions | false;
  /** On by default (7 days); `false` keeps everything forever. */
  retention?: RetentionOptions | false;
  /** Job kinds of your own, run by the same worker. */
  runners?: Record<string, JobRunner>;
}

/** `{ a: 1, b: undefined }` → `{ a: 1 }`: an unset configuration value keeps the default. */
function definedOnly<T extends Record<string, unknown>>(values: T): Partial<T> {
  return Object.fromEntries(Object.entries(values).filter(([, v]) => v !== undefined)) as Partial<T>;
}

/** The worker's service client: the one given, or one built from `config` (exported for its test). */
export function serviceOf(options: Pick<MarketWorkerOptions, 'service' | 'config'>): ServiceClient {
  if (options.service) return options.service;
  const { serviceApiUrl, appApiKey, serviceTimeoutMs } = options.config ?? {};
  if (serviceApiUrl === undefined || appApiKey === undefined) {
    throw new KitError(
      'misconfigured',
      'createMarketWorker needs `service`, or `config` with serviceApiUrl and appApiKey (SERVICE_API_URL, APP_API_KEY)',
    );
  }
  return createServiceClient({ baseUrl: serviceApiUrl, apiKey: appApiKey, timeoutMs: serviceTimeoutMs });
}

function integrationModeOf(options: MarketWorkerOptions): IntegrationMode {
  const mode = options.integrationMode ?? options.config?.integrationMode;
  if (mode === undefined) {
    throw new KitError(
      'misconfigured',
      'createMarketWorker needs `integrationMode`, or `config` to read it from',
    );
  }
  return mode;
}

/**
 * Builds the worker (call `start()`; `stop()` drains). Refuses, as `misconfigured`, a missing
 * service or mode and a retention not longer than the webhook replay window.
 */
export function createMarketWorker(options: MarketWorkerOptions): JobWorker {
  const { store } = options;
  const service = serviceOf(options);
  // Not silent by default: the worker's lines (job failed, lease lost) are what operators act on.
  const logger = options.logger ?? consoleLogger;
  const dataSharing = integrationModeOf(options) === 'data-sharing';
  const runners: Record<string, JobRunner> = { ...options.runners };
  const periodic: PeriodicJob[] = [];

  if (dataSharing) {
    const deps = { store, service, logger, getDisbursementInvoice: options.getDisbursementInvoice };
    runners[DISBURSE_JOB] = ((job, context) =>
      runDisbursement(deps, job, context)) as JobRunner<DisbursePayload>;
  }
  if (options.reconciliation !== false) {
    const settings = {
      ...DEFAULT_RECONCILIATION,
      ...definedOnly({
        afterMs: options.config?.reconcileAfterMs,
        everyMs: options.config?.reconcileEveryMs,
      }),
      ...options.reconciliation,
    };
    const onReady = dataSharing
      ? (tx: Parameters<typeof enqueueDisbursement>[0], order: { id: string }) =>
          enqueueDisbursement(tx, order.id)
      : undefined;
    runners[RECONCILE_JOB] = async (job, context) => {
      await runReconciliation({ store, service, logger, onReady }, settings, job, context);
    };
    periodic.push({ kind: RECONCILE_JOB, everyMs: settings.everyMs });
  }
  if (options.retention !== false) {
    const afterMs = retentionWindowMs({
      webhookToleranceSeconds: options.config?.webhookToleranceSeconds,
      ...options.retention,
    });
    runners[PRUNE_JOB] = async (job) => {
      await runRetention(
        { store, logger },
        afterMs,
        job,
        periodic.map((p) => p.kind),
      );
    };
    periodic.push({ kind: PRUNE_JOB, everyMs: options.retention?.everyMs ?? DEFAULT_RETENTION.everyMs });
  }

  return createJobWorker({
    store,
    runners,
    periodic,
    logger,
    leaseMs: options.leaseMs,
    concurrency: options.concurrency,
    minIdleMs: options.minIdleMs,
    maxIdleMs: options.maxIdleMs,
    now: options.now,
    workerId: options.workerId,
  });
}

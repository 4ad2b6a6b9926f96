/**
 * The reference servers' job worker: the published one (`@bnpl-kit/store/worker`), configured from
 * the server's configuration. Data-sharing mode runs the disbursement jobs that readiness webhooks
 * enqueue (basic mode has none: the service disburses by itself); both modes reconcile orders
 * whose webhooks never arrived and prune finished jobs and processed event IDs.
 */
import type { ServiceClient } from '@bnpl-kit/core';
import type { Store } from '@bnpl-kit/store';
import { createMarketWorker, type DisbursementInvoiceSource, type JobWorker } from '@bnpl-kit/store/worker';
import type { Logger } from 'pino';
import type { ServerConfig } from './config.js';
import { rateLimitedLogger } from './rate-limited-logger.js';

export function startServerWorker(input: {
  config: ServerConfig;
  store: Store;
  service: ServiceClient;
  logger: Logger;
  getDisbursementInvoice: DisbursementInvoiceSource;
  /** Polling and the periodic jobs' clock (tests shorten the idle wait and move the clock). */
  polling: { minIdleMs?: number; maxIdleMs?: number; now?: () => Date } | undefined;
}): JobWorker {
  const { config } = input;
  const worker = createMarketWorker({
    store: input.store,
    service: input.service,
    integrationMode: config.integrationMode,
    // The app's logger; repeats (a poll failing through a database outage) once per interval.
    logger: rateLimitedLogger(input.logger.child({ component: 'worker' })),
    getDisbursementInvoice: input.getDisbursementInvoice,
    leaseMs: config.jobLeaseMs,
    reconciliation: config.reconciliation,
    retention: { afterMs: config.retentionMs, webhookToleranceSeconds: config.webhookToleranceSeconds },
    ...input.polling,
  });
  worker.start();
  return worker;
}

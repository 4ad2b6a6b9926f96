/**
 * The data-sharing server's job worker: it runs the disbursement jobs that readiness webhooks
 * enqueue (basic mode has no jobs: the service disburses by itself).
 */
import type { ServiceClient } from '@bnpl-kit/core';
import type { Store } from '@bnpl-kit/store';
import type { Logger } from 'pino';
import { DISBURSE_JOB, runDisbursement } from './disbursement.js';
import type { DisbursementInvoiceSource } from './invoice.js';
import { createJobWorker, type JobRunner, type JobWorker, type JobWorkerOptions } from './worker.js';

export function startDisbursementWorker(input: {
  store: Store;
  service: ServiceClient;
  logger: Logger;
  getDisbursementInvoice: DisbursementInvoiceSource;
  leaseMs: number;
  /** Polling (tests shorten the idle wait). */
  polling: Pick<JobWorkerOptions, 'minIdleMs' | 'maxIdleMs'> | undefined;
}): JobWorker {
  const { store, service, logger, getDisbursementInvoice } = input;
  const disburse: JobRunner = (job) =>
    runDisbursement({ store, service, logger, getDisbursementInvoice }, job as never);
  const worker = createJobWorker({
    store,
    runners: { [DISBURSE_JOB]: disburse },
    logger,
    leaseMs: input.leaseMs,
    ...input.polling,
  });
  worker.start();
  return worker;
}

/**
 * Reconciliation: webhooks can be lost for good (the service's retries end, an endpoint was down
 * for a day), and an order would then stay APPROVED forever. A periodic job asks the service about
 * every order that is not final and has not moved for longer than `afterMs`, and moves it forward
 * by the same rule as webhooks and the status endpoint (`followServiceStatus`, WIRE §3). Each
 * correction is a status history row whose source is `reconciliation:<job id>`.
 *
 * Several processes: one run per period (the periodic job's dedupe key), and within overlapping
 * runs each order is claimed by one of them (`claimStaleOrders`, SKIP LOCKED); the status move
 * itself locks the order row, and a move already made is not made again.
 *
 * Data-sharing markets: an order the service reports DISBURSING is ready for disbursement (§3), so
 * `onReady` (the disbursement enqueue) runs in the same transaction as the correction.
 */
import { isKitError, type MarketLogger, type ServiceClient, type StoredOrder } from '@bnpl-kit/core';
import { followServiceStatus } from '@bnpl-kit/core/wire';
import type { Job } from '../records.js';
import type { Store, StoreTransaction } from '../store.js';
import type { JobRunContext } from './job-worker.js';
import { recordReconciliationCorrection } from './metrics.js';

export const RECONCILE_JOB = 'reconcile';

export const RECONCILIATION_SOURCE_PREFIX = 'reconciliation:';

export interface ReconciliationOptions {
  /** An order not final and unchanged for this long is asked about. Default 10 min. */
  afterMs?: number;
  /** How often a run starts (one across all processes). Default 1 min. */
  everyMs?: number;
  /** Orders asked about per run at most. Default 100. */
  batchSize?: number;
}

export const DEFAULT_RECONCILIATION = { afterMs: 10 * 60_000, everyMs: 60_000, batchSize: 100 } as const;

export interface ReconciliationDeps {
  store: Pick<Store, 'claimStaleOrders' | 'transaction'>;
  service: Pick<ServiceClient, 'getOrder'>;
  logger: MarketLogger;
  /** Runs in the correction's transaction when the service says the order is ready (DISBURSING). */
  onReady?: ((tx: StoreTransaction, order: StoredOrder) => Promise<unknown>) | undefined;
}

export interface Correction {
  orderId: string;
  from: StoredOrder['status'];
  to: StoredOrder['status'];
}

export interface ReconciliationRun {
  checked: number;
  corrections: Correction[];
  /** Orders the service could not be asked about this time (asked again next threshold). */
  failed: number;
}

/** Asks the service about one stale order and applies its answer. */
async function reconcileOne(
  deps: ReconciliationDeps,
  orderId: string,
  source: string,
  signal: AbortSignal | undefined,
): Promise<Correction | undefined> {
  const remote = await deps.service.getOrder(orderId, { signal });
  return deps.store.transaction(async (tx) => {
    const { order, serviceStatus, transition } = await followServiceStatus(
      tx,
      orderId,
      remote.orderStatus,
      source,
    );
    if (order && serviceStatus === 'DISBURSING' && order.status === 'DISBURSING')
      await deps.onReady?.(tx, order);
    if (!transition?.changed) return undefined;
    return { orderId, from: transition.from, to: transition.status };
  });
}

/** One reconciliation run: the stale orders of this period, each asked about and moved forward. */
export async function runReconciliation(
  deps: ReconciliationDeps,
  options: Required<Pick<ReconciliationOptions, 'afterMs' | 'batchSize'>>,
  job: Pick<Job, 'id'>,
  context?: Pick<JobRunContext, 'signal'>,
): Promise<ReconciliationRun> {
  const stale = await deps.store.claimStaleOrders({ staleForMs: options.afterMs, limit: options.batchSize });
  const source = `${RECONCILIATION_SOURCE_PREFIX}${job.id}`;
  const run: ReconciliationRun = { checked: 0, corrections: [], failed: 0 };
  for (const order of stale) {
    if (context?.signal.aborted) break;
    run.checked++;
    try {
      const correction = await reconcileOne(deps, order.id, source, context?.signal);
      if (correction) {
        run.corrections.push(correction);
        recordReconciliationCorrection(correction.from, correction.to);
        deps.logger.info({ ...correction, jobId: job.id }, 'reconciliation corrected an order status');
      }
    } catch (error) {
      run.failed++;
      const level = isKitError(error, 'order_not_found') ? 'error' : 'warn';
      deps.logger[level]({ orderId: order.id, jobId: job.id, err: error }, 'could not reconcile an order');
    }
  }
  if (run.checked > 0) {
    deps.logger.info(
      { jobId: job.id, checked: run.checked, corrected: run.corrections.length, failed: run.failed },
      'reconciliation run finished',
    );
  }
  return run;
}

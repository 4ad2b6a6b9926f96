/**
 * Disbursement as a durable job (data-sharing mode). Readiness enqueues it in the webhook's own
 * transaction (`enqueueDisbursement(tx, orderId)` in `handleWebhook`), so the job exists exactly
 * when the status change committed; the worker then calls the service with one idempotency key per
 * order, so a retry after a crash cannot pay twice.
 */
import {
  type Invoice,
  isKitError,
  type KitError,
  type MarketLogger,
  type MarketStore,
  type ServiceClient,
  type StoredOrder,
} from '@bnpl-kit/core';
import { followServiceStatus, idempotencyKeys } from '@bnpl-kit/core/wire';
import type { Job } from '../records.js';
import type { StoreTransaction } from '../store.js';
import { type JobRunContext, PermanentJobFailure } from './job-worker.js';

export const DISBURSE_JOB = 'disburse';

export interface DisbursePayload {
  orderId: string;
}

/** The invoice sent with a disbursement: the market's `getDisbursementInvoice` hook, so job and endpoint agree. */
export type DisbursementInvoiceSource = (
  order: StoredOrder,
) => Promise<Invoice | undefined> | Invoice | undefined;

/** Same key as the kit's `POST /orders/:id/disburse`: a manual call and the job cannot both pay. */
export const disburseIdempotencyKey = idempotencyKeys.disburseOrder;

/** Enqueues the order's disbursement in `tx` (at most one per order: the dedupe key). */
export function enqueueDisbursement(tx: Pick<StoreTransaction, 'enqueueJob'>, orderId: string) {
  return tx.enqueueJob<DisbursePayload>({
    kind: DISBURSE_JOB,
    payload: { orderId },
    dedupeKey: `disburse:${orderId}`,
  });
}

/** Nothing left to do for an order in one of these statuses. */
const SETTLED = new Set(['PAID', 'CANCELING', 'CANCELED']);

function isPermanent(error: KitError): boolean {
  return ['conflict', 'order_not_found', 'validation_failed', 'invalid_transition'].includes(error.code);
}

export interface DisbursementDeps {
  /** Only reads and moves the order: any market store will do (tests use core's memory store). */
  store: Pick<MarketStore, 'findOrderById' | 'transaction'>;
  service: ServiceClient;
  logger: MarketLogger;
  getDisbursementInvoice?: DisbursementInvoiceSource | undefined;
}

/** Runs one disbursement job: asks the service to disburse, then records what the service says. */
export async function runDisbursement(
  deps: DisbursementDeps,
  job: Job<DisbursePayload>,
  context?: Pick<JobRunContext, 'signal'>,
): Promise<void> {
  const { orderId } = job.payload;
  const order = await deps.store.findOrderById(orderId);
  if (!order) throw new PermanentJobFailure(`Order ${orderId} is not in the store`);
  if (SETTLED.has(order.status)) {
    deps.logger.info({ orderId, status: order.status, jobId: job.id }, 'disbursement not needed any more');
    return;
  }
  const invoice = await deps.getDisbursementInvoice?.(order);
  let remote: Awaited<ReturnType<ServiceClient['disburseOrder']>>;
  try {
    remote = await deps.service.disburseOrder(orderId, invoice ? { invoice } : {}, {
      idempotencyKey: disburseIdempotencyKey(orderId),
      signal: context?.signal,
    });
  } catch (error) {
    if (isKitError(error) && isPermanent(error)) {
      throw new PermanentJobFailure(`The service refused to disburse order ${orderId}: ${error.message}`, {
        cause: error,
      });
    }
    throw error;
  }
  // A status outside the six is read tolerantly (WIRE §6): it moves nothing and is logged below.
  const followed = await deps.store.transaction((tx) =>
    followServiceStatus(tx, orderId, remote.orderStatus, `job:${job.id}`),
  );
  deps.logger.info(
    {
      orderId,
      jobId: job.id,
      attempt: job.attempts,
      status: followed.order?.status,
      serviceStatus: remote.orderStatus,
      invoice: invoice?.number,
    },
    'disbursement requested',
  );
}

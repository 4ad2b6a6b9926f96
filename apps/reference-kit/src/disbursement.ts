/**
 * Disbursement as a durable job (data-sharing mode). Readiness enqueues it in the webhook's own
 * transaction, so the job exists exactly when the status change committed; the worker then calls
 * the service with one idempotency key per order, so a retry after a crash cannot pay twice.
 */

import {
  isKitError,
  type KitError,
  type MarketLogger,
  type MarketStore,
  type ServiceClient,
  type StoredOrder,
} from '@bnpl-kit/core';
import { idempotencyKeys, knownOrderStatus, transition } from '@bnpl-kit/core/wire';
import type { Job, StoreTransaction } from '@bnpl-kit/store';
import type { DisbursementInvoiceSource } from './invoice.js';

export const DISBURSE_JOB = 'disburse';

export interface DisbursePayload {
  orderId: string;
}

/** Same key as the kit's `POST /orders/:id/disburse`: a manual call and the job cannot both pay. */
export const disburseIdempotencyKey = idempotencyKeys.disburseOrder;

export function enqueueDisbursement(tx: StoreTransaction, orderId: string) {
  return tx.enqueueJob<DisbursePayload>({
    kind: DISBURSE_JOB,
    payload: { orderId },
    dedupeKey: `disburse:${orderId}`,
  });
}

/** Nothing left to do for an order in one of these statuses. */
const SETTLED = new Set(['PAID', 'CANCELING', 'CANCELED']);

/** A failure that another attempt cannot fix: the job is marked failed for a person to look at. */
export class PermanentJobFailure extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'PermanentJobFailure';
  }
}

function isPermanent(error: KitError): boolean {
  return ['conflict', 'order_not_found', 'validation_failed', 'invalid_transition'].includes(error.code);
}

export interface DisbursementDeps {
  /** Only reads and moves the order: any market store will do (tests use core's memory store). */
  store: Pick<MarketStore, 'findOrderById' | 'transaction'>;
  service: ServiceClient;
  logger: MarketLogger;
  /** The same source as the market's `getDisbursementInvoice` hook, so job and endpoint agree. */
  getDisbursementInvoice?: DisbursementInvoiceSource;
}

/** Runs one disbursement job: asks the service to disburse, then records what the service says. */
export async function runDisbursement(deps: DisbursementDeps, job: Job<DisbursePayload>): Promise<void> {
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
    });
  } catch (error) {
    if (isKitError(error) && isPermanent(error)) {
      throw new PermanentJobFailure(`The service refused to disburse order ${orderId}: ${error.message}`, {
        cause: error,
      });
    }
    throw error;
  }
  const after = await deps.store.transaction(async (tx) => {
    const local = await tx.getOrderForUpdate(orderId);
    // A status outside the six is read tolerantly (WIRE §6): it moves nothing and is logged below.
    const remoteStatus = knownOrderStatus(remote.orderStatus);
    if (!local || remoteStatus === undefined) return local;
    const result = transition(local.status, remoteStatus);
    if (!result.changed) return local;
    await tx.setOrderStatus({ orderId, from: local.status, to: result.status, source: `job:${job.id}` });
    return { ...local, status: result.status } satisfies StoredOrder;
  });
  deps.logger.info(
    {
      orderId,
      jobId: job.id,
      attempt: job.attempts,
      status: after?.status,
      serviceStatus: remote.orderStatus,
      invoice: invoice?.number,
    },
    'disbursement requested',
  );
}

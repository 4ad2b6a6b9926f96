/**
 * The disbursement job asks the same invoice source as the kit's manual disburse endpoint, and
 * reads the service's answer tolerantly (WIRE §5, §6).
 */
import type { Invoice, ServiceClient } from '@bnpl-kit/core';
import { createMemoryStore } from '@bnpl-kit/core/testing';
import type { ServiceOrder } from '@bnpl-kit/core/wire';
import type { Job } from '@bnpl-kit/store';
import { type DisbursePayload, runDisbursement } from '@bnpl-kit/store/worker';
import { describe, expect, it } from 'vitest';
import { referenceInvoice } from '../src/index.js';

const quiet = { debug() {}, info() {}, warn() {}, error() {} };

function job(orderId: string): Job<DisbursePayload> {
  const now = new Date();
  return {
    id: `job-${orderId}`,
    kind: 'disburse',
    payload: { orderId },
    dedupeKey: `disburse:${orderId}`,
    status: 'running',
    attempts: 1,
    maxAttempts: 5,
    runAt: now,
    lockedUntil: undefined,
    lockedBy: undefined,
    lastError: undefined,
    createdAt: now,
    updatedAt: now,
  };
}

/** Only `disburseOrder` is used by the job; it answers with the status given. */
function serviceAnswering(orderStatus: string) {
  const calls: { id: string; input: { invoice?: Invoice } }[] = [];
  const service = {
    async disburseOrder(id: string, input: { invoice?: Invoice }): Promise<ServiceOrder> {
      calls.push({ id, input });
      return {
        id,
        referenceId: 'ref',
        totalAmount: { value: '1', currency: 'VND' },
        orderLines: [],
        orderStatus,
      };
    },
  } as unknown as ServiceClient;
  return { service, calls };
}

describe('disbursement job', () => {
  const store = createMemoryStore();

  async function approvedOrder(id: string) {
    await store.insertOrder({
      id,
      referenceId: `shop-${id}`,
      totalAmount: { value: '1', currency: 'VND' },
      orderLines: [],
      status: 'APPROVED',
      requestFingerprint: 'fp',
    });
    return (await store.findOrderById(id))!;
  }

  it('sends the invoice of getDisbursementInvoice, asked with the stored order', async () => {
    const order = await approvedOrder('o-inv');
    const { service, calls } = serviceAnswering('DISBURSING');
    const asked: string[] = [];
    await runDisbursement(
      {
        store,
        service,
        logger: quiet,
        getDisbursementInvoice: (o) => {
          asked.push(o.id);
          return referenceInvoice(o);
        },
      },
      job('o-inv'),
    );
    expect(asked).toEqual(['o-inv']);
    expect(calls).toEqual([
      {
        id: 'o-inv',
        input: { invoice: { number: 'INV-shop-o-inv', issuedAt: order.updatedAt.toISOString() } },
      },
    ]);
    expect((await store.findOrderById('o-inv'))?.status).toBe('DISBURSING');
  });

  it('keeps the stored status when the service answers a status outside the six', async () => {
    await approvedOrder('o-odd');
    const { service, calls } = serviceAnswering('SETTLEMENT_QUEUED');
    await runDisbursement({ store, service, logger: quiet }, job('o-odd'));
    expect(calls).toEqual([{ id: 'o-odd', input: {} }]);
    expect((await store.findOrderById('o-odd'))?.status).toBe('APPROVED');
  });
});

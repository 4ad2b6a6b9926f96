/** `getDisbursementInvoice` (WIRE §5): asked only when the disburse request brings no invoice. */
import { describe, expect, it, vi } from 'vitest';
import type { StoredOrder } from '../src/market/store.js';
import { API_TOKEN, call, insertOrder, makeMarket } from './market-support.js';

const disburse = (body?: unknown) => ({
  method: 'POST',
  token: API_TOKEN,
  ...(body === undefined ? {} : { body: JSON.stringify(body) }),
});

async function marketWithApprovedOrder(hook?: Parameters<typeof makeMarket>[0]) {
  const t = await makeMarket(hook);
  const { order } = await insertOrder(t.store, 'svc_1', 'APPROVED');
  t.service.orders.set('svc_1', {
    id: 'svc_1',
    referenceId: order.referenceId,
    totalAmount: order.totalAmount,
    orderLines: [],
    orderStatus: 'APPROVED',
  });
  return t;
}

describe('POST /v1/orders/:id/disburse and getDisbursementInvoice', () => {
  it('sends the hook’s invoice when the request has none, asking with the stored order', async () => {
    const getDisbursementInvoice = vi.fn((_order: StoredOrder) => ({
      number: 'INV-7',
      issuedAt: '2026-11-21T10:00:00Z',
    }));
    const t = await marketWithApprovedOrder({ hooks: { getDisbursementInvoice } });
    const response = await call(t.market, '/v1/orders/svc_1/disburse', disburse());
    expect(response.status).toBe(202);
    expect(getDisbursementInvoice).toHaveBeenCalledOnce();
    expect(getDisbursementInvoice.mock.calls[0]![0]).toMatchObject({ id: 'svc_1', status: 'APPROVED' });
    expect(t.service.callsOf('disburseOrder')[0]!.args).toEqual([
      'svc_1',
      { invoice: { number: 'INV-7', issuedAt: '2026-11-21T10:00:00Z' } },
    ]);
  });

  it('prefers the request’s invoice and does not ask the hook', async () => {
    const getDisbursementInvoice = vi.fn(() => ({ number: 'FROM-HOOK' }));
    const t = await marketWithApprovedOrder({ hooks: { getDisbursementInvoice } });
    const response = await call(
      t.market,
      '/v1/orders/svc_1/disburse',
      disburse({ invoice: { number: 'FROM-BODY' } }),
    );
    expect(response.status).toBe(202);
    expect(getDisbursementInvoice).not.toHaveBeenCalled();
    expect(t.service.callsOf('disburseOrder')[0]!.args[1]).toEqual({ invoice: { number: 'FROM-BODY' } });
  });

  it('disburses without an invoice when the hook returns none or is absent', async () => {
    const t = await marketWithApprovedOrder({ hooks: { getDisbursementInvoice: () => undefined } });
    expect((await call(t.market, '/v1/orders/svc_1/disburse', disburse())).status).toBe(202);
    expect(t.service.callsOf('disburseOrder')[0]!.args[1]).toEqual({});
    const bare = await marketWithApprovedOrder();
    expect((await call(bare.market, '/v1/orders/svc_1/disburse', disburse())).status).toBe(202);
    expect(bare.service.callsOf('disburseOrder')[0]!.args[1]).toEqual({});
  });

  it('answers 500 without details when the hook returns an invalid invoice, and calls no service', async () => {
    const t = await marketWithApprovedOrder({ hooks: { getDisbursementInvoice: () => ({ number: '' }) } });
    const response = await call(t.market, '/v1/orders/svc_1/disburse', disburse());
    expect(response.status).toBe(500);
    expect(response.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    expect(t.service.callsOf('disburseOrder')).toEqual([]);
  });
});

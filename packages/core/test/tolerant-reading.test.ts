/**
 * Tolerant reading of the service (WIRE §6): an order status outside the six, in a webhook or in a
 * service answer, is never a 400 or a 502; identifiers in events may be integers.
 */
import { describe, expect, it, vi } from 'vitest';
import { isUnknownEvent, parseWebhookEvent } from '../src/models/events.js';
import type { MarketLogger } from '../src/observability/logger.js';
import { signWebhook, wireOrder } from '../src/testing.js';
import { API_TOKEN, call, deliverWebhook, insertOrder, makeMarket, ORIGIN } from './market-support.js';

function recordingLogger() {
  const warnings: { fields: Record<string, unknown>; message: string | undefined }[] = [];
  const logger: MarketLogger = {
    debug() {},
    info() {},
    warn: (fields, message) => warnings.push({ fields, message }),
    error() {},
  };
  return { logger, warnings };
}

describe('webhook events, read tolerantly', () => {
  it('keeps an unknown order_status as an unknown event with the order ID and raw status', () => {
    const event = parseWebhookEvent(
      '{"type":"BNPL_ORDER_STATUS_UPDATED","order_id":"o1","order_status":"ON_HOLD"}',
    );
    expect(isUnknownEvent(event)).toBe(true);
    expect(event).toMatchObject({
      type: 'BNPL_ORDER_STATUS_UPDATED',
      reason: 'unknown_order_status',
      orderId: 'o1',
      orderStatus: 'ON_HOLD',
    });
  });

  it('accepts integer identifiers and keeps them as strings', () => {
    expect(
      parseWebhookEvent(
        '{"type":"OFFER_TRANSACTION_STATUS_UPDATED","transaction_id":90210,"credify_id":7,"transaction_status":"COMPLETED","offer_code":"BNPL"}',
      ),
    ).toEqual({
      type: 'OFFER_TRANSACTION_STATUS_UPDATED',
      transactionId: '90210',
      credifyId: '7',
      transactionStatus: 'COMPLETED',
      offerCode: 'BNPL',
    });
    expect(
      parseWebhookEvent('{"type":"BNPL_ORDER_STATUS_UPDATED","order_id":12,"order_status":"paid"}'),
    ).toEqual({
      type: 'BNPL_ORDER_STATUS_UPDATED',
      orderId: '12',
      orderStatus: 'PAID',
    });
  });

  it('acknowledges an unknown status (200), records the event, warns, hands it to onUnknownEvent, keeps the status', async () => {
    const { logger, warnings } = recordingLogger();
    const onUnknownEvent = vi.fn();
    const t = await makeMarket({ logger, onUnknownEvent });
    await insertOrder(t.store, 'o1', 'APPROVED');
    const { response, json, eventId } = await deliverWebhook(t, {
      type: 'BNPL_ORDER_STATUS_UPDATED',
      order_id: 'o1',
      order_status: 'ON_HOLD',
    });
    expect(response.status).toBe(200);
    expect(json).toEqual({ received: true });
    expect(t.store.processedEvents()).toEqual([{ eventId, eventType: 'BNPL_ORDER_STATUS_UPDATED' }]);
    expect(t.store.orders()[0]?.status).toBe('APPROVED');
    expect(t.store.statusChanges()).toEqual([]);
    expect(t.hooks.webhooks).toEqual([]);
    expect(onUnknownEvent).toHaveBeenCalledOnce();
    expect(onUnknownEvent.mock.calls[0]![0]).toMatchObject({
      eventId,
      event: { reason: 'unknown_order_status', orderId: 'o1', orderStatus: 'ON_HOLD' },
    });
    expect(warnings).toHaveLength(1);
    expect(warnings[0]!.fields).toMatchObject({ eventId, orderId: 'o1', serviceStatus: 'ON_HOLD' });

    // Recorded with its event ID: the same delivery again is a duplicate and runs nothing.
    const again = await t.market.handle(
      new Request(`${ORIGIN}/v1/webhook`, {
        method: 'POST',
        headers: (
          await signWebhook({
            url: t.market.webhookUrl,
            body: { type: 'BNPL_ORDER_STATUS_UPDATED', order_id: 'o1', order_status: 'ON_HOLD' },
            signingKey: t.serviceKeys.privateKeyPem,
            eventId,
          })
        ).headers,
        body: JSON.stringify({ type: 'BNPL_ORDER_STATUS_UPDATED', order_id: 'o1', order_status: 'ON_HOLD' }),
      }),
    );
    expect(again.status).toBe(200);
    expect(await again.json()).toEqual({ received: true, duplicate: true });
    expect(onUnknownEvent).toHaveBeenCalledOnce();
  });

  it('answers 200 to an offer transaction event with a numeric transaction_id', async () => {
    const t = await makeMarket();
    const { response } = await deliverWebhook(t, {
      type: 'OFFER_TRANSACTION_STATUS_UPDATED',
      transaction_id: 123456,
      credify_id: 'c1',
      transaction_status: 'COMPLETED',
      offer_code: 'BNPL',
    });
    expect(response.status).toBe(200);
    expect(t.hooks.webhooks[0]).toMatchObject({ event: { transactionId: '123456' } });
  });
});

describe('service answers, read tolerantly', () => {
  const orderBody = wireOrder({ reference_id: 'ref-tolerant' });

  it('status: keeps the stored status and reports the raw value as service_status (not a 502)', async () => {
    const { logger, warnings } = recordingLogger();
    const t = await makeMarket({ logger });
    const created = await call(t.market, '/v1/orders', {
      method: 'POST',
      token: API_TOKEN,
      body: JSON.stringify(orderBody),
    });
    const { id } = await created.json();
    t.service.setStatus(id, 'APPROVED');
    await call(t.market, `/v1/orders/service/${id}`, { token: API_TOKEN });
    t.service.setStatus(id, 'UNDER_REVIEW' as never);
    const response = await call(t.market, `/v1/orders/service/${id}`, { token: API_TOKEN });
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ id, status: 'APPROVED', service_status: 'UNDER_REVIEW' });
    expect(t.store.orders()[0]?.status).toBe('APPROVED');
    expect(warnings.map((w) => w.fields.serviceStatus)).toEqual(['UNDER_REVIEW']);
  });

  it('create, cancel and disburse go through with an unknown status and report it', async () => {
    const t = await makeMarket();
    const createOrder = t.service.createOrder.bind(t.service);
    t.service.createOrder = async (input, options) => ({
      ...(await createOrder(input, options)),
      orderStatus: 'NEW',
    });
    const created = await call(t.market, '/v1/orders', {
      method: 'POST',
      token: API_TOKEN,
      body: JSON.stringify(orderBody),
    });
    expect(created.status).toBe(201);
    const record = await created.json();
    expect(record).toMatchObject({ status: 'PENDING', service_status: 'NEW' });

    await insertOrder(t.store, 'svc_approved', 'APPROVED');
    t.service.orders.set('svc_approved', { ...t.service.orders.get(record.id)!, id: 'svc_approved' });
    // An action's answer carries the service's raw status; the stored status stays.
    const act = async (action: 'cancel' | 'disburse', serviceStatus: string) => {
      const answered = async (id: string) => ({
        ...t.service.orders.get(id)!,
        orderStatus: serviceStatus as never,
      });
      if (action === 'cancel') t.service.cancelOrder = answered;
      else t.service.disburseOrder = answered;
      const response = await call(t.market, `/v1/orders/svc_approved/${action}`, {
        method: 'POST',
        token: API_TOKEN,
      });
      expect(response.status).toBe(202);
      expect(await response.json()).toEqual({
        id: 'svc_approved',
        status: 'APPROVED',
        service_status: serviceStatus,
      });
    };
    await act('cancel', 'REVERTING');
    await act('disburse', 'SETTLING');
  });
});

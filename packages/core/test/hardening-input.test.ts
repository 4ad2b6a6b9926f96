/**
 * Issue 10, reproductions 2, 3 and 8 at the market handler: input PostgreSQL or a header cannot
 * carry is a 400 at decode time, before the service is called (so no orphan service order), and
 * every valid Unicode string works end to end.
 */
import { describe, expect, it } from 'vitest';
import { KitError } from '../src/errors.js';
import { headerSafe, idempotencyKeys } from '../src/service/idempotency.js';
import { wireOrder, wireOrderLine } from '../src/testing.js';
import { API_TOKEN, call, deliverWebhook, insertOrder, makeMarket, USER_TOKEN } from './market-support.js';

const post = (body: unknown, token = API_TOKEN) => ({ method: 'POST', token, body: JSON.stringify(body) });

const HOSTILE = {
  nul: 'a\u0000b',
  loneLow: 'x\udc00',
  loneHigh: '\ud800y',
  crlf: 'a\r\nInjected: 1',
  tab: 'a\tb',
  c1: 'a\u0085b',
};

describe('order creation refuses unstorable text before calling the service', () => {
  it.each(Object.entries(HOSTILE))(
    '%s in name, reference_id or line reference_id → 400, no service call',
    async (_, bad) => {
      for (const order of [
        wireOrder({ reference_id: bad }),
        wireOrder({ order_lines: [wireOrderLine({ name: bad })] }),
        wireOrder({ order_lines: [wireOrderLine({ reference_id: bad })] }),
      ]) {
        const { market, service, store } = await makeMarket();
        const response = await call(market, '/v1/orders', post(order));
        expect(response.status).toBe(400);
        expect(response.headers.get('content-type')).toBe('application/problem+json');
        expect((await response.json()).code).toBe('validation_failed');
        expect(service.callsOf('createOrder')).toEqual([]);
        expect(store.orders()).toEqual([]);
      }
    },
  );

  it('accepts Vietnamese, CJK and emoji end to end, with a header-safe Idempotency-Key', async () => {
    const { market, service } = await makeMarket();
    for (const ref of ['đơn-hàng-1', '注文-2', 'order-🛒-3']) {
      const order = wireOrder({
        reference_id: ref,
        order_lines: [wireOrderLine({ name: `Nồi cơm ${ref}` })],
      });
      const response = await call(market, '/v1/orders', post(order));
      expect(response.status).toBe(201);
      expect((await response.json()).reference_id).toBe(ref);
    }
    const keys = service.callsOf('createOrder').map((c) => c.options?.idempotencyKey ?? '');
    for (const key of keys) expect(key).toMatch(/^[\x21-\x7E]+$/);
    expect(new Set(keys).size).toBe(3);
  });

  it('refuses a total of "0" and URLs over 2048 characters', async () => {
    const { market, service } = await makeMarket();
    const zero = { value: '0', currency: 'VND' };
    const free = wireOrder({
      total_amount: zero,
      order_lines: [wireOrderLine({ unit_price: zero, subtotal: zero })],
    });
    const r1 = await call(market, '/v1/orders', post(free));
    expect(r1.status).toBe(400);
    expect((await r1.json()).errors).toContainEqual({
      path: 'total_amount.value',
      message: 'must be greater than 0',
    });
    const long = `https://shop.example/${'a'.repeat(2048)}`;
    const r2 = await call(
      market,
      '/v1/orders',
      post(wireOrder({ order_lines: [wireOrderLine({ image_url: long })] })),
    );
    expect(r2.status).toBe(400);
    expect((await r2.json()).errors[0].path).toBe('order_lines[0].image_url');
    expect(service.callsOf('createOrder')).toEqual([]);
  });
});

describe('path parameters and other IDs', () => {
  it('answers 400 for NUL, control characters or an overlong ID in a path', async () => {
    const { market, store } = await makeMarket();
    await insertOrder(store, 'ord-1', 'APPROVED');
    for (const id of ['%00', 'a%0D%0Ab', 'x%7F', 'a'.repeat(256)]) {
      for (const [method, path, token] of [
        ['GET', `/v1/bnpl/orders/${id}/redirect`, undefined],
        ['POST', `/v1/orders/${id}/cancel`, API_TOKEN],
        ['POST', `/v1/orders/${id}/disburse`, API_TOKEN],
        ['GET', `/v1/orders/service/${id}`, API_TOKEN],
      ] as const) {
        const response = await call(market, path, { method, ...(token && { token }) });
        expect(response.status, `${method} ${path}`).toBe(400);
        expect((await response.json()).code).toBe('validation_failed');
      }
    }
  });

  it('refuses NUL in credify_id on push-claims before any hook or service call', async () => {
    const { market, service, hooks } = await makeMarket();
    const response = await call(
      market,
      '/v1/push-claims',
      post({ id: 'u1', credify_id: 'c\u0000' }, USER_TOKEN),
    );
    expect(response.status).toBe(400);
    expect(service.calls).toEqual([]);
    expect(hooks.webhooks).toEqual([]);
  });

  it('answers a validly signed webhook with NUL in order_id or an 8 KB X-Event-Id with 400', async () => {
    const t = await makeMarket();
    await insertOrder(t.store, 'ord-1', 'PENDING');
    const cases = [
      { body: { type: 'BNPL_ORDER_STATUS_UPDATED', order_id: 'o\u0000', order_status: 'APPROVED' } },
      {
        body: { type: 'BNPL_ORDER_STATUS_UPDATED', order_id: 'ord-1', order_status: 'APPROVED' },
        eventId: 'e'.repeat(8192),
      },
      { body: { type: 'SOMETHING\u0000NEW' } },
    ];
    for (const { body, eventId } of cases) {
      const { response, json } = await deliverWebhook(t, body, eventId ? { eventId } : {});
      expect(response.status).toBe(400);
      expect(json.code).toBe('validation_failed');
    }
    expect(t.hooks.webhooks).toEqual([]);
    expect(t.store.orders()[0]?.status).toBe('PENDING');
  });
});

describe('headerSafe (Idempotency-Key values from user data)', () => {
  it('keeps plain ASCII IDs readable and encodes everything else losslessly and injectively', () => {
    expect(idempotencyKeys.createOrder('order-1')).toBe('create-order:order-1');
    expect(headerSafe('đơn')).toBe('%C4%91%C6%A1n');
    expect(headerSafe('a b')).toBe('a%20b');
    expect(headerSafe('a%20b')).toBe('a%2520b');
    expect(headerSafe('\ud800')).toBe('%uD800');
    const inputs = ['a b', 'a%20b', 'a+b', '🛒', '\ud83d', '\ude00x', 'x\r\ny', '%', '%25'];
    const outputs = inputs.map(headerSafe);
    expect(new Set(outputs).size).toBe(inputs.length);
    for (const out of outputs) expect(out).toMatch(/^[\x21-\x7E]*$/);
    const wellFormed = (i: string) =>
      !/[\ud800-\udfff]/.test(i.replace(/[\ud800-\udbff][\udc00-\udfff]/g, ''));
    for (const input of inputs.filter(wellFormed)) {
      if (/^[\x21-\x24\x26-\x7E]*$/.test(input)) continue;
      expect(decodeURIComponent(headerSafe(input))).toBe(input);
    }
  });
});

describe('a database connection lost once', () => {
  it('is retried for the webhook transaction and the order insert, so nothing answers 503 or leaves an orphan', async () => {
    const t = await makeMarket();
    await insertOrder(t.store, 'ord-1', 'PENDING');
    const failOnce = <K extends 'transaction' | 'insertOrder' | 'findOrderByReferenceId'>(name: K) => {
      const original = t.store[name].bind(t.store) as (...args: unknown[]) => Promise<unknown>;
      let failed = false;
      (t.store as unknown as Record<K, unknown>)[name] = (...args: unknown[]) => {
        if (failed) return original(...args);
        failed = true;
        return Promise.reject(new KitError('store_unavailable', 'The database at x is unavailable'));
      };
    };
    failOnce('transaction');
    const { response: webhook } = await deliverWebhook(t, {
      type: 'BNPL_ORDER_STATUS_UPDATED',
      order_id: 'ord-1',
      order_status: 'APPROVED',
    });
    expect(webhook.status).toBe(200);
    expect(t.store.orders()[0]?.status).toBe('APPROVED');
    failOnce('findOrderByReferenceId');
    failOnce('insertOrder');
    const created = await call(t.market, '/v1/orders', post(wireOrder({ reference_id: 'retry-1' })));
    expect(created.status).toBe(201);
    const local = t.store.orders().map((o) => o.id);
    for (const id of t.service.orders.keys()) expect(local).toContain(id);
  });
});

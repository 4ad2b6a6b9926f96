import { describe, expect, it } from 'vitest';
import { KitError } from '../src/errors.js';
import { wireOrderLine as wireLine, wireOrder } from '../src/testing.js';
import { API_TOKEN, call, insertOrder, makeMarket } from './market-support.js';
import { ROUTE_SAMPLES } from './route-samples.js';

const post = (body: unknown, token = API_TOKEN) => ({
  method: 'POST',
  token,
  body: typeof body === 'string' ? body : JSON.stringify(body),
});
/** A JSON request whose bytes the test controls (for bodies no JS string can carry). */
const postBytes = (body: Uint8Array<ArrayBuffer>) => ({
  method: 'POST',
  token: API_TOKEN,
  headers: { 'content-type': 'application/json' },
  body,
});

describe('POST /v1/orders', () => {
  it('creates the order at the service, stores it and answers 201 with the order record', async () => {
    const { market, store, service } = await makeMarket();
    const response = await call(market, '/v1/orders', post(wireOrder()));
    expect(response.status).toBe(201);
    expect(await response.json()).toEqual({
      id: 'svc_1',
      reference_id: 'order-1',
      totalAmount: { value: '300000', currency: 'VND' },
      status: 'PENDING',
    });
    expect(store.orders()).toMatchObject([{ id: 'svc_1', referenceId: 'order-1', status: 'PENDING' }]);
    const [create] = service.callsOf('createOrder');
    expect(create?.options?.idempotencyKey).toBe('create-order:order-1');
  });

  it('refuses without client credentials (401 with a Bearer challenge)', async () => {
    const { market, service } = await makeMarket();
    for (const token of [undefined, 'wrong']) {
      const response = await call(market, '/v1/orders', {
        method: 'POST',
        token,
        body: JSON.stringify(wireOrder()),
      });
      expect(response.status).toBe(401);
      expect(response.headers.get('www-authenticate')).toBe('Bearer');
      expect((await response.json()).code).toBe('unauthenticated');
    }
    expect(service.calls).toEqual([]);
  });

  it('needs Content-Type: application/json (415)', async () => {
    const { market } = await makeMarket();
    const response = await call(market, '/v1/orders', {
      ...post(wireOrder()),
      headers: { 'content-type': 'text/plain' },
    });
    expect(response.status).toBe(415);
    expect((await response.json()).code).toBe('unsupported_media_type');
  });

  it('answers 400 invalid_json for a body that is not JSON', async () => {
    const { market } = await makeMarket();
    const response = await call(market, '/v1/orders', post('{"reference_id": '));
    expect(response.status).toBe(400);
    expect((await response.json()).code).toBe('invalid_json');
  });

  it('answers 400 invalid_json for a body that is not UTF-8, and stores nothing', async () => {
    const { market, store, service } = await makeMarket();
    const json = JSON.stringify(wireOrder({ reference_id: 'bad-@@-1' }));
    const at = json.indexOf('@@');
    const bytes = new TextEncoder().encode(json);
    bytes.set([0xff, 0xfe], at); // '@@' is two ASCII bytes: same offsets in the encoding
    const response = await call(market, '/v1/orders', postBytes(bytes));
    expect(response.status).toBe(400);
    const problem = await response.json();
    expect(problem.code).toBe('invalid_json');
    expect(problem.detail).toMatch(/UTF-8/);
    expect(store.orders()).toEqual([]);
    expect(service.calls).toEqual([]);
  });

  it('accepts a UTF-8 body with non-ASCII text and a leading byte-order mark', async () => {
    const { market, store } = await makeMarket();
    const json = JSON.stringify(wireOrder({ reference_id: 'đơn-hàng-1' }));
    const bytes = new Uint8Array([0xef, 0xbb, 0xbf, ...new TextEncoder().encode(json)]);
    const response = await call(market, '/v1/orders', postBytes(bytes));
    expect(response.status).toBe(201);
    expect(store.orders()).toMatchObject([{ referenceId: 'đơn-hàng-1' }]);
  });

  it('answers 413 for a body over the limit, by Content-Length or by counting', async () => {
    const { market } = await makeMarket({ limits: { maxBodyBytes: 1024 } });
    const big = JSON.stringify(wireOrder({ reference_id: 'x'.repeat(2000) }));
    const declared = await call(market, '/v1/orders', post(big));
    expect(declared.status).toBe(413);
    const stream = new ReadableStream({
      start(controller) {
        controller.enqueue(new TextEncoder().encode(big));
        controller.close();
      },
    });
    const counted = await call(market, '/v1/orders', {
      ...post(''),
      headers: { 'content-type': 'application/json' },
      body: stream,
      duplex: 'half',
    } as RequestInit);
    expect(counted.status).toBe(413);
    expect((await counted.json()).code).toBe('payload_too_large');
  });

  it('reports every validation problem with its wire path', async () => {
    const { market, service } = await makeMarket();
    const body = wireOrder({
      total_amount: { value: '1.5', currency: 'USD' },
      order_lines: [wireLine({ measurement_unit: 'EACH', measment_unit: undefined })],
    });
    const response = await call(market, '/v1/orders', post(body));
    expect(response.status).toBe(400);
    const problem = await response.json();
    expect(problem.code).toBe('validation_failed');
    const paths = problem.errors.map((e: { path: string }) => e.path);
    expect(paths).toEqual(
      expect.arrayContaining(['total_amount.value', 'total_amount.currency', 'order_lines[0].measment_unit']),
    );
    expect(service.calls).toEqual([]);
  });

  it('is idempotent on reference_id: same content → 200 with the same order, other content → 409', async () => {
    const { market, service } = await makeMarket();
    expect((await call(market, '/v1/orders', post(wireOrder()))).status).toBe(201);
    // Same content, other key order and spacing.
    const { order_lines, total_amount, reference_id } = wireOrder();
    const again = await call(
      market,
      '/v1/orders',
      post(JSON.stringify({ order_lines, total_amount, reference_id }, null, 2)),
    );
    expect(again.status).toBe(200);
    expect((await again.json()).id).toBe('svc_1');
    const other = wireOrder({
      total_amount: { value: '450000', currency: 'VND' },
      order_lines: [wireLine({ quantity: 3, subtotal: { value: '450000', currency: 'VND' } })],
    });
    const conflict = await call(market, '/v1/orders', post(other));
    expect(conflict.status).toBe(409);
    expect(await conflict.json()).toMatchObject({ code: 'idempotency_conflict', order_id: 'svc_1' });
    expect(service.callsOf('createOrder')).toHaveLength(1);
  });

  it('creates one order when the same request races itself', async () => {
    const { market, store } = await makeMarket();
    const answers = await Promise.all([1, 2, 3].map(() => call(market, '/v1/orders', post(wireOrder()))));
    expect(answers.map((r) => r.status).sort()).toEqual([200, 200, 201]);
    expect(new Set(await Promise.all(answers.map(async (r) => (await r.json()).id)))).toEqual(
      new Set(['svc_1']),
    );
    expect(store.orders()).toHaveLength(1);
  });
});

describe('GET /v1/orders/service/:id', () => {
  it('answers from the service and moves the local status forward', async () => {
    const { market, store, service } = await makeMarket();
    await call(market, '/v1/orders', post(wireOrder()));
    service.setStatus('svc_1', 'APPROVED');
    const response = await call(market, '/v1/orders/service/svc_1', { token: API_TOKEN });
    expect(response.status).toBe(200);
    const body = await response.json();
    expect(body).toMatchObject({
      id: 'svc_1',
      reference_id: 'order-1',
      status: 'APPROVED',
      total_amount: { value: '300000', currency: 'VND' },
    });
    expect(Date.parse(body.updated_at)).not.toBeNaN();
    expect(store.orders()[0]?.status).toBe('APPROVED');
    expect(store.statusChanges()).toEqual([
      { orderId: 'svc_1', from: 'PENDING', to: 'APPROVED', source: 'reconcile' },
    ]);
  });

  it('keeps a newer local status when the service lags behind', async () => {
    const { market, store, service } = await makeMarket();
    await call(market, '/v1/orders', post(wireOrder()));
    await store.transaction((tx) =>
      tx.setOrderStatus({ orderId: 'svc_1', from: 'PENDING', to: 'PAID', source: 'test' }),
    );
    service.setStatus('svc_1', 'APPROVED');
    const body = await (await call(market, '/v1/orders/service/svc_1', { token: API_TOKEN })).json();
    expect(body.status).toBe('PAID');
  });

  it('needs client credentials and passes a service 404 through', async () => {
    const { market } = await makeMarket();
    expect((await call(market, '/v1/orders/service/svc_1')).status).toBe(401);
    const missing = await call(market, '/v1/orders/service/nope', { token: API_TOKEN });
    expect(missing.status).toBe(404);
    expect((await missing.json()).code).toBe('order_not_found');
  });
});

describe('POST /v1/orders/:id/cancel and /disburse', () => {
  it('cancels an approved order with an idempotency key and answers 202', async () => {
    const { market, store, service } = await makeMarket();
    await call(market, '/v1/orders', post(wireOrder()));
    await store.transaction((tx) =>
      tx.setOrderStatus({ orderId: 'svc_1', from: 'PENDING', to: 'APPROVED', source: 't' }),
    );
    const response = await call(market, '/v1/orders/svc_1/cancel', { method: 'POST', token: API_TOKEN });
    expect(response.status).toBe(202);
    expect(await response.json()).toEqual({ id: 'svc_1', status: 'CANCELED' });
    expect(service.callsOf('cancelOrder')[0]?.options?.idempotencyKey).toBe('revert:svc_1');
    expect(store.orders()[0]?.status).toBe('CANCELED');
  });

  it.each(['PENDING', 'DISBURSING', 'PAID', 'CANCELED'] as const)(
    'refuses to cancel a %s order (409)',
    async (status) => {
      const { market, store, service } = await makeMarket();
      await insertOrder(store, 'o1', status);
      const response = await call(market, '/v1/orders/o1/cancel', { method: 'POST', token: API_TOKEN });
      expect(response.status).toBe(409);
      expect(await response.json()).toMatchObject({ code: 'invalid_transition', current_status: status });
      expect(service.callsOf('cancelOrder')).toEqual([]);
    },
  );

  it('disburses an APPROVED or DISBURSING order, passing the optional invoice', async () => {
    const { market, store, service } = await makeMarket();
    for (const [id, status] of [
      ['o1', 'APPROVED'],
      ['o2', 'DISBURSING'],
    ] as const) {
      await insertOrder(store, id, status);
      service.orders.set(id, {
        id,
        referenceId: `ref-${id}`,
        totalAmount: { value: '300000', currency: 'VND' },
        orderLines: [],
        orderStatus: status,
      });
    }
    const invoice = {
      invoice: {
        number: 'INV-1',
        url: 'https://market.example.com/inv/1',
        issued_at: '2026-11-21T10:00:00Z',
      },
    };
    const withInvoice = await call(market, '/v1/orders/o1/disburse', post(invoice));
    expect(withInvoice.status).toBe(202);
    expect(await withInvoice.json()).toEqual({ id: 'o1', status: 'PAID' });
    const bare = await call(market, '/v1/orders/o2/disburse', { method: 'POST', token: API_TOKEN });
    expect(bare.status).toBe(202);
    const calls = service.callsOf('disburseOrder');
    expect(calls.map((c) => c.args)).toEqual([
      [
        'o1',
        {
          invoice: {
            number: 'INV-1',
            url: 'https://market.example.com/inv/1',
            issuedAt: '2026-11-21T10:00:00Z',
          },
        },
      ],
      ['o2', {}],
    ]);
    expect(calls.map((c) => c.options?.idempotencyKey)).toEqual(['disburse:o1', 'disburse:o2']);
  });

  it('refuses to disburse a PENDING order, an unknown order and a bad invoice', async () => {
    const { market, store } = await makeMarket();
    await insertOrder(store, 'o1', 'PENDING');
    await insertOrder(store, 'o2', 'APPROVED');
    expect((await call(market, '/v1/orders/o1/disburse', { method: 'POST', token: API_TOKEN })).status).toBe(
      409,
    );
    const unknown = await call(market, '/v1/orders/zz/disburse', { method: 'POST', token: API_TOKEN });
    expect(unknown.status).toBe(404);
    expect((await unknown.json()).code).toBe('order_not_found');
    const bad = await call(market, '/v1/orders/o2/disburse', post({ invoice: { url: 'nope' } }));
    expect(bad.status).toBe(400);
    expect((await bad.json()).errors.map((e: { path: string }) => e.path)).toEqual(
      expect.arrayContaining(['invoice.number', 'invoice.url']),
    );
    expect((await call(market, '/v1/orders/o2/disburse', { method: 'POST' })).status).toBe(401);
  });
});

describe('GET /v1/bnpl/orders/:id/redirect', () => {
  it('redirects to getBNPLCallback(order), 404 for an unknown order', async () => {
    const { market, store } = await makeMarket();
    await insertOrder(store, 'o 1', 'APPROVED');
    const response = await call(market, '/v1/bnpl/orders/o%201/redirect');
    expect(response.status).toBe(302);
    expect(response.headers.get('location')).toBe('https://market.example.com/checkout/done?order=o%201');
    const unknown = await call(market, '/v1/bnpl/orders/nope/redirect');
    expect(unknown.status).toBe(404);
  });

  it('refuses to redirect to something that is not an http(s) URL', async () => {
    const { market, store } = await makeMarket({ hooks: { getBNPLCallback: () => 'javascript:alert(1)' } });
    await insertOrder(store, 'o1', 'APPROVED');
    expect((await call(market, '/v1/bnpl/orders/o1/redirect')).status).toBe(500);
  });
});

describe('a concurrent create of one reference_id with other content', () => {
  it('answers the service’s refusal of the Idempotency-Key as idempotency_conflict (409), the code the route declares', async () => {
    const t = await makeMarket();
    // What the other request's create left at the service: the key is taken with other content.
    t.service.createOrder = async () => {
      throw new KitError('conflict', 'The BNPL service refused createOrder in the current state');
    };
    const response = await call(t.market, '/v1/orders', {
      method: 'POST',
      token: API_TOKEN,
      body: JSON.stringify(ROUTE_SAMPLES.createOrder.body),
    });
    expect(response.status).toBe(409);
    expect((await response.json()).code).toBe('idempotency_conflict');
  });
});

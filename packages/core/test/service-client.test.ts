import { freePort } from '@bnpl-kit/test-ports';
import { describe, expect, it, vi } from 'vitest';
import { createServiceClient, KitError, type ServiceClientOptions } from '../src/index.js';
import { kitErrorOf } from '../src/testing.js';
import {
  envelope,
  failure,
  never,
  ORDERS,
  orderInput,
  orderService,
  scriptedFetch,
  tokenAnswer,
  wireServiceOrder,
} from './service-support.js';

const BASE = 'https://service.test';

function client(fetchImpl: typeof fetch, options: Partial<ServiceClientOptions> = {}) {
  return createServiceClient({
    baseUrl: BASE,
    apiKey: 'key-123456',
    fetch: fetchImpl,
    sleep: async () => {},
    ...options,
  });
}

const failureOf = (promise: Promise<unknown>) => kitErrorOf(promise);

describe('access token', () => {
  it('is fetched with X-API-KEY and sent as a bearer token', async () => {
    const s = scriptedFetch({
      'POST /v1/token': () => tokenAnswer('tok-A'),
      [`GET ${ORDERS}/ord-1`]: () => envelope(wireServiceOrder()),
    });
    const order = await client(s.fetch).getOrder('ord-1');
    expect(order).toMatchObject({ id: 'ord-1', referenceId: 'order-1', orderStatus: 'PENDING' });
    expect(order.orderLines[0]?.measurementUnit).toBe('EACH');
    expect(s.seen[0]?.headers.get('x-api-key')).toBe('key-123456');
    expect(s.seen[0]?.headers.get('authorization')).toBeNull();
    expect(s.seen[1]?.headers.get('authorization')).toBe('Bearer tok-A');
    expect(s.seen[1]?.headers.get('x-api-key')).toBeNull();
  });

  it('is requested once for many concurrent calls', async () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const s = scriptedFetch({
      'POST /v1/token': async () => {
        await gate;
        return tokenAnswer();
      },
      [`GET ${ORDERS}/ord-1`]: () => envelope(wireServiceOrder()),
    });
    const c = client(s.fetch);
    const calls = Array.from({ length: 10 }, () => c.getOrder('ord-1'));
    release();
    await Promise.all(calls);
    expect(s.count('POST /v1/token')).toBe(1);
    expect(s.count(`GET ${ORDERS}/ord-1`)).toBe(10);
  });

  it('is reused until 60 s before expiry, then renewed', async () => {
    let now = 1_000_000;
    const s = scriptedFetch({
      'POST /v1/token': [() => tokenAnswer('tok-1', 600), () => tokenAnswer('tok-2', 600)],
      [`GET ${ORDERS}/ord-1`]: () => envelope(wireServiceOrder()),
    });
    const c = client(s.fetch, { now: () => now });
    await c.getOrder('ord-1');
    now += (600 - 61) * 1000;
    await c.getOrder('ord-1');
    expect(s.count('POST /v1/token')).toBe(1);
    now += 2000;
    await c.getOrder('ord-1');
    expect(s.count('POST /v1/token')).toBe(2);
    expect(s.seen.at(-1)?.headers.get('authorization')).toBe('Bearer tok-2');
  });

  it('is renewed once when the service answers 401, then the call is repeated', async () => {
    const s = scriptedFetch({
      'POST /v1/token': [() => tokenAnswer('old'), () => tokenAnswer('new')],
      [`GET ${ORDERS}/ord-1`]: (r) =>
        r.headers.get('authorization') === 'Bearer new'
          ? envelope(wireServiceOrder())
          : failure(401, 'UNAUTHENTICATED'),
    });
    await expect(client(s.fetch).getOrder('ord-1')).resolves.toMatchObject({ id: 'ord-1' });
    expect(s.count('POST /v1/token')).toBe(2);
  });

  it('renews once for many concurrent calls that all met a 401', async () => {
    const s = scriptedFetch({
      'POST /v1/token': [() => tokenAnswer('old'), () => tokenAnswer('new'), () => tokenAnswer('newer')],
      [`GET ${ORDERS}/ord-1`]: (r) =>
        r.headers.get('authorization') === 'Bearer old' ? failure(401) : envelope(wireServiceOrder()),
    });
    const c = client(s.fetch);
    await c.introspectToken('x', 'y').catch(() => undefined);
    await Promise.all(Array.from({ length: 10 }, () => c.getOrder('ord-1')));
    expect(s.count('POST /v1/token')).toBe(2);
    expect(s.count(`GET ${ORDERS}/ord-1`)).toBe(20);
  });

  it('gives up after one renewal when the service keeps answering 401', async () => {
    const s = scriptedFetch({
      'POST /v1/token': () => tokenAnswer(),
      [`GET ${ORDERS}/ord-1`]: () => failure(401, 'UNAUTHENTICATED', 'token expired'),
    });
    const error = await failureOf(client(s.fetch).getOrder('ord-1'));
    expect(error.code).toBe('upstream_rejected');
    expect(error.status).toBe(502);
    expect(s.count('POST /v1/token')).toBe(2);
    expect(s.count(`GET ${ORDERS}/ord-1`)).toBe(2);
  });

  it.each([401, 403])(
    'refused API key (%i) is a 502 that names APP_API_KEY and the permission',
    async (status) => {
      const s = scriptedFetch({ 'POST /v1/token': () => failure(status, 'FORBIDDEN', 'no') });
      const error = await failureOf(client(s.fetch).getOrder('ord-1'));
      expect(error.code).toBe('upstream_rejected');
      expect(error.message).toContain('APP_API_KEY');
      expect(error.message).toContain('claim_provider');
      expect(s.count('POST /v1/token')).toBe(1);
    },
  );
});

describe('failure mapping', () => {
  const withToken = (answer: Parameters<typeof scriptedFetch>[0][string]) =>
    scriptedFetch({ 'POST /v1/token': () => tokenAnswer(), [`GET ${ORDERS}/ord-1`]: answer });

  it('no answer within timeoutMs → upstream_timeout (504)', async () => {
    const s = withToken(never);
    const error = await failureOf(client(s.fetch, { timeoutMs: 20, retries: 0 }).getOrder('ord-1'));
    expect(error.code).toBe('upstream_timeout');
    expect(error.status).toBe(504);
    expect(error.message).toContain('getOrder');
  });

  it('a body that never finishes is also a timeout', async () => {
    const s = withToken(
      () =>
        new Response(
          new ReadableStream({ start: (c) => c.enqueue(new TextEncoder().encode('{"success":')) }),
        ),
    );
    const error = await failureOf(client(s.fetch, { timeoutMs: 20, retries: 0 }).getOrder('ord-1'));
    expect(error.code).toBe('upstream_timeout');
  });

  it('a connection failure → upstream_unavailable (503)', async () => {
    const s = withToken(() => {
      throw new TypeError('fetch failed');
    });
    const error = await failureOf(client(s.fetch, { retries: 0 }).getOrder('ord-1'));
    expect(error.code).toBe('upstream_unavailable');
    expect(error.status).toBe(503);
  });

  it("an in-process service failing with the kit's own error keeps it (not blamed on the service)", async () => {
    const local = new KitError('store_unavailable', 'the shared database cannot write');
    const s = withToken(() => {
      throw local;
    });
    const error = await failureOf(client(s.fetch).getOrder('ord-1'));
    expect(error).toBe(local);
    expect(error.status).toBe(503);
    // Not retried either: the service was never the problem.
    expect(s.count(`GET ${ORDERS}/ord-1`)).toBe(1);
  });

  it('a refused TCP connection (real fetch, closed port) → upstream_unavailable', async () => {
    // Free, so nothing listens there, and below the ephemeral range: a port inside it could be
    // taken by a client socket (whose connection would then be the one refused, or a self-connect).
    const port = await freePort();
    const c = createServiceClient({ baseUrl: `http://127.0.0.1:${port}`, apiKey: 'key-123456', retries: 0 });
    const error = await failureOf(c.getOrder('ord-1'));
    expect(error.code).toBe('upstream_unavailable');
  });

  it('a 5xx → upstream_rejected (502) without echoing the service message', async () => {
    const s = withToken(() => failure(500, 'INTERNAL', 'NullPointerException at db.query(secret)'));
    const error = await failureOf(client(s.fetch, { retries: 0 }).getOrder('ord-1'));
    expect(error.code).toBe('upstream_rejected');
    expect(error.status).toBe(502);
    expect(error.message).not.toContain('NullPointer');
    expect(error.toProblem().detail).not.toContain('secret');
  });

  it.each([
    ['not JSON', () => new Response('<html>oops</html>', { status: 200 })],
    ['no envelope', () => new Response(JSON.stringify({ id: 'ord-1' }), { status: 200 })],
    ['success false with 200', () => failure(200)],
    ['a data field of the wrong shape', () => envelope(wireServiceOrder({ order_status: 7 }))],
  ])('a malformed 2xx answer (%s) → upstream_rejected', async (_, answer) => {
    const s = withToken(answer);
    const error = await failureOf(client(s.fetch).getOrder('ord-1'));
    expect(error.code).toBe('upstream_rejected');
    expect(error.message).toContain('getOrder');
    expect(s.count(`GET ${ORDERS}/ord-1`)).toBe(1);
  });

  it('reads an order_status outside the six tolerantly instead of answering 502 (WIRE §6)', async () => {
    const s = withToken(() => envelope(wireServiceOrder({ order_status: 'UNDER_REVIEW' })));
    expect((await client(s.fetch).getOrder('ord-1')).orderStatus).toBe('UNDER_REVIEW');
    const lower = withToken(() => envelope(wireServiceOrder({ order_status: 'approved' })));
    expect((await client(lower.fetch).getOrder('ord-1')).orderStatus).toBe('APPROVED');
  });

  it('names the offending field of a malformed answer', async () => {
    const s = withToken(() =>
      envelope(wireServiceOrder({ total_amount: { value: '1.5', currency: 'VND' } })),
    );
    const error = await failureOf(client(s.fetch).getOrder('ord-1'));
    expect(error.errors?.[0]?.path).toBe('data.total_amount.value');
  });

  it.each([
    [404, 'order_not_found', 404],
    [409, 'conflict', 409],
    [400, 'validation_failed', 400],
    [422, 'validation_failed', 400],
    [429, 'upstream_unavailable', 503],
    [418, 'upstream_rejected', 502],
  ] as const)('HTTP %i → %s (%i)', async (status, code, ourStatus) => {
    const s = withToken(() => failure(status, 'X', 'provider says no'));
    const error = await failureOf(client(s.fetch, { retries: 0 }).getOrder('ord-1'));
    expect(error.code).toBe(code);
    expect(error.status).toBe(ourStatus);
    expect(error.extensions).toMatchObject({ upstream_status: status, operation: 'getOrder' });
  });

  it('a 400 passes the service messages on as field issues', async () => {
    const s = withToken(() => failure(400, 'INVOICE_REQUIRED', 'this provider needs an invoice'));
    const error = await failureOf(client(s.fetch).getOrder('ord-1'));
    expect(error.message).toContain('this provider needs an invoice');
    expect(error.errors).toEqual([{ path: 'INVOICE_REQUIRED', message: 'this provider needs an invoice' }]);
  });

  it('a caller abort is passed through, not retried, not turned into an upstream error', async () => {
    const s = withToken(never);
    const controller = new AbortController();
    const reason = new Error('caller gave up');
    const call = client(s.fetch).getOrder('ord-1', { signal: controller.signal });
    await vi.waitFor(() => expect(s.count(`GET ${ORDERS}/ord-1`)).toBe(1));
    controller.abort(reason);
    await expect(call).rejects.toBe(reason);
    expect(s.count(`GET ${ORDERS}/ord-1`)).toBe(1);
  });
});

describe('retries', () => {
  it('repeat an idempotent call on 5xx with jittered exponential backoff', async () => {
    const sleeps: number[] = [];
    const s = scriptedFetch({
      'POST /v1/token': () => tokenAnswer(),
      [`GET ${ORDERS}/ord-1`]: [() => failure(500), () => failure(503), () => envelope(wireServiceOrder())],
    });
    const c = client(s.fetch, {
      retries: 2,
      retryBaseDelayMs: 100,
      random: () => 0.5,
      sleep: async (ms) => void sleeps.push(ms),
    });
    await expect(c.getOrder('ord-1')).resolves.toMatchObject({ id: 'ord-1' });
    expect(sleeps).toEqual([50, 100]);
  });

  it('stop after `retries` extra attempts', async () => {
    const s = scriptedFetch({
      'POST /v1/token': () => tokenAnswer(),
      [`GET ${ORDERS}/ord-1`]: () => failure(502),
    });
    const error = await failureOf(client(s.fetch, { retries: 3 }).getOrder('ord-1'));
    expect(error.code).toBe('upstream_rejected');
    expect(s.count(`GET ${ORDERS}/ord-1`)).toBe(4);
  });

  it('cover timeouts and connection failures of idempotent calls', async () => {
    const s = scriptedFetch({
      'POST /v1/token': () => tokenAnswer(),
      [`GET ${ORDERS}/ord-1`]: [
        never,
        () => {
          throw new TypeError('fetch failed');
        },
        () => envelope(wireServiceOrder()),
      ],
    });
    await expect(client(s.fetch, { timeoutMs: 20 }).getOrder('ord-1')).resolves.toMatchObject({
      id: 'ord-1',
    });
    expect(s.count(`GET ${ORDERS}/ord-1`)).toBe(3);
  });

  it('never repeat a 4xx', async () => {
    const s = scriptedFetch({
      'POST /v1/token': () => tokenAnswer(),
      [`GET ${ORDERS}/ord-1`]: () => failure(404),
    });
    await failureOf(client(s.fetch, { retries: 5 }).getOrder('ord-1'));
    expect(s.count(`GET ${ORDERS}/ord-1`)).toBe(1);
  });

  it.each([
    ['a 5xx', () => failure(500)],
    ['a timeout', never],
  ])('never repeat a mutating call blindly (%s)', async (_, answer) => {
    const s = scriptedFetch({
      'POST /v1/token': () => tokenAnswer(),
      [`POST ${ORDERS}/ord-1/disburse`]: answer,
    });
    await failureOf(client(s.fetch, { retries: 5, timeoutMs: 20 }).disburseOrder('ord-1', {}));
    expect(s.count(`POST ${ORDERS}/ord-1/disburse`)).toBe(1);
  });

  it('repeat a mutating call whose connection failed, with its Idempotency-Key, up to `retries`', async () => {
    const reset = () => {
      throw new TypeError('fetch failed', {
        cause: Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' }),
      });
    };
    const s = scriptedFetch({
      'POST /v1/token': () => tokenAnswer(),
      [`POST ${ORDERS}/ord-1/disburse`]: [
        reset,
        reset,
        () => envelope(wireServiceOrder({ order_status: 'PAID' })),
      ],
    });
    await expect(client(s.fetch, { retries: 2 }).disburseOrder('ord-1', {})).resolves.toMatchObject({
      id: 'ord-1',
    });
    const keys = s.seen
      .filter((r) => r.path.endsWith('/disburse'))
      .map((r) => r.headers.get('idempotency-key'));
    expect(keys).toEqual(['disburse:ord-1', 'disburse:ord-1', 'disburse:ord-1']);

    const again = scriptedFetch({
      'POST /v1/token': () => tokenAnswer(),
      [`POST ${ORDERS}/ord-1/disburse`]: reset,
    });
    expect((await failureOf(client(again.fetch, { retries: 1 }).disburseOrder('ord-1', {}))).code).toBe(
      'upstream_unavailable',
    );
    expect(again.count(`POST ${ORDERS}/ord-1/disburse`)).toBe(2);
  });

  it('never repeat a mutating call the service answered 429 (it answered: not a dead connection)', async () => {
    const s = scriptedFetch({
      'POST /v1/token': () => tokenAnswer(),
      [`POST ${ORDERS}/ord-1/disburse`]: () => failure(429),
    });
    expect((await failureOf(client(s.fetch, { retries: 5 }).disburseOrder('ord-1', {}))).code).toBe(
      'upstream_unavailable',
    );
    expect(s.count(`POST ${ORDERS}/ord-1/disburse`)).toBe(1);
  });

  it('retry the token request itself', async () => {
    const s = scriptedFetch({
      'POST /v1/token': [() => failure(503), () => tokenAnswer()],
      [`GET ${ORDERS}/ord-1`]: () => envelope(wireServiceOrder()),
    });
    await expect(client(s.fetch).getOrder('ord-1')).resolves.toMatchObject({ id: 'ord-1' });
    expect(s.count('POST /v1/token')).toBe(2);
  });
});

describe('requests', () => {
  function allRoutes() {
    return orderService({
      [`POST ${ORDERS}/ord-1/revert`]: () => envelope(wireServiceOrder({ order_status: 'CANCELED' })),
      [`POST ${ORDERS}/ord-1/disburse`]: () => envelope(wireServiceOrder({ order_status: 'PAID' })),
      'PUT /v1/claim-providers/entities/crf-1/claims': () => envelope({}),
      'GET /v1/entity/public-key': () => envelope({ signing: 'KEY' }),
      'POST /v1/oauth2/introspect': () => envelope({ active: true, scope: 'a b', aud: 'org', exp: 99 }),
      'POST /v1/claim-providers/offers': () => envelope({ offers: [{ code: 'x' }], credify_id: 'crf-1' }),
    });
  }

  it('encode models to snake_case wire bodies and decode the answers', async () => {
    const s = allRoutes();
    const c = client(s.fetch);
    const created = await c.createOrder({
      ...orderInput,
      paymentRecipient: { type: 'ORGANIZATION', id: 'org' },
    });
    expect(created.totalAmount).toEqual({ value: '300000', currency: 'VND' });
    const body = JSON.parse(s.seen[1]!.body!);
    expect(body).toMatchObject({
      reference_id: 'order-1',
      total_amount: { value: '300000', currency: 'VND' },
      payment_recipient: { type: 'ORGANIZATION', id: 'org' },
    });
    expect(body.order_lines[0]).toMatchObject({ measment_unit: 'EACH', unit_price: { value: '150000' } });
    expect(s.seen[1]!.headers.get('content-type')).toBe('application/json');

    expect((await c.cancelOrder('ord-1')).orderStatus).toBe('CANCELED');
    expect(s.seen.at(-1)?.body).toBe('{}');
    await c.disburseOrder('ord-1', {
      invoice: { number: 'INV-1', url: undefined, issuedAt: '2030-01-01T00:00:00Z' },
    });
    expect(JSON.parse(s.seen.at(-1)!.body!)).toEqual({
      invoice: { number: 'INV-1', issued_at: '2030-01-01T00:00:00Z' },
    });
    await c.pushClaimTokens('crf-1', ['jwt-1', 'jwt-2']);
    expect(JSON.parse(s.seen.at(-1)!.body!)).toEqual({ claim_tokens: ['jwt-1', 'jwt-2'] });
    expect(await c.getSigningPublicKey('org-1')).toBe('KEY');
    expect(s.seen.at(-1)?.url).toBe(`${BASE}/v1/entity/public-key?entity_id=org-1`);
    expect(await c.introspectToken('t', 'scope')).toEqual({
      active: true,
      scope: 'a b',
      aud: 'org',
      exp: 99,
    });
    expect(JSON.parse(s.seen.at(-1)!.body!)).toEqual({ token: 't', scope: 'scope' });
    const availability = await c.checkAvailability({ localId: 'u1', productTypes: ['consumerBNPL'] });
    expect(availability).toEqual({ offers: [{ code: 'x' }], credifyId: 'crf-1' });
    expect(JSON.parse(s.seen.at(-1)!.body!)).toEqual({ local_id: 'u1', product_types: ['consumerBNPL'] });
  });

  it('carry an Idempotency-Key on mutating calls only, derived from operation and ID', async () => {
    const s = allRoutes();
    const c = client(s.fetch);
    await c.createOrder(orderInput);
    await c.cancelOrder('ord-1');
    await c.disburseOrder('ord-1', {});
    await c.disburseOrder('ord-1', {}, { idempotencyKey: 'mine' });
    await c.pushClaimTokens('crf-1', ['a']);
    await c.pushClaimTokens('crf-1', ['a']);
    await c.pushClaimTokens('crf-1', ['b']);
    await c.introspectToken('t', 's');
    const keys = s.seen.map((r) => r.headers.get('idempotency-key'));
    expect(keys.slice(1, 5)).toEqual(['create-order:order-1', 'revert:ord-1', 'disburse:ord-1', 'mine']);
    expect(keys[5]).toMatch(/^push-claims:crf-1:[A-Za-z0-9_-]{22}$/);
    expect(keys[6]).toBe(keys[5]);
    expect(keys[7]).not.toBe(keys[5]);
    expect(keys[0]).toBeNull();
    expect(keys[8]).toBeNull();
  });

  it('refuse an invalid request before sending it', async () => {
    const s = allRoutes();
    const bad = { ...orderInput, totalAmount: { value: '1', currency: 'VND' as const } };
    const error = await failureOf(client(s.fetch).createOrder(bad));
    expect(error.code).toBe('validation_failed');
    expect(error.errors?.[0]?.path).toBe('total_amount.value');
    expect(s.count(`POST ${ORDERS}`)).toBe(0);
  });

  it('append paths to a base URL with a prefix, percent-encoding path parameters', async () => {
    const s = scriptedFetch({
      'POST /api/v1/token': () => tokenAnswer(),
      [`GET /api${ORDERS}/a%2Fb`]: () => envelope(wireServiceOrder()),
    });
    await client(s.fetch, { baseUrl: 'https://service.test/api/' }).getOrder('a/b');
    expect(s.seen.at(-1)?.path).toBe(`/api${ORDERS}/a%2Fb`);
  });
});

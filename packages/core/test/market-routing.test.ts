import { describe, expect, it, vi } from 'vitest';
import { ERROR_DOCS_URL } from '../src/errors.js';
import { answererOf } from '../src/market/body-hints.js';
import { createMemoryStore, type MemoryStore } from '../src/market/memory-store.js';
import { API_TOKEN, call, makeMarket, ORIGIN } from './market-support.js';

describe('market routing', () => {
  it('answers an unknown path with a 404 problem', async () => {
    const { market } = await makeMarket();
    const response = await call(market, '/v1/nothing-here');
    expect(response.status).toBe(404);
    expect(response.headers.get('content-type')).toBe('application/problem+json');
    expect(await response.json()).toMatchObject({
      code: 'not_found',
      type: `${ERROR_DOCS_URL}#not_found`,
    });
  });

  it('answers a wrong method with 405 and Allow', async () => {
    const { market } = await makeMarket();
    const response = await call(market, '/v1/orders', { method: 'GET', token: API_TOKEN });
    expect(response.status).toBe(405);
    expect(response.headers.get('allow')).toBe('POST');
    expect((await response.json()).code).toBe('method_not_allowed');
  });

  it('echoes a given X-Request-Id and generates one otherwise', async () => {
    const { market } = await makeMarket();
    const given = await call(market, '/v1/demo-user', { headers: { 'x-request-id': 'req-123' } });
    expect(given.headers.get('x-request-id')).toBe('req-123');
    const generated = await call(market, '/v1/demo-user');
    expect(generated.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    const junk = await call(market, '/v1/demo-user', { headers: { 'x-request-id': 'a b\tc' } });
    expect(junk.headers.get('x-request-id')).not.toBe('a b\tc');
  });

  it('serves only the basic endpoints in basic mode', async () => {
    const { market } = await makeMarket({ config: { integrationMode: 'basic' } });
    for (const path of [
      '/v1/orders/o1/cancel',
      '/v1/orders/o1/disburse',
      '/v1/push-claims',
      '/v1/offers/filter',
    ]) {
      const response = await call(market, path, { method: 'POST', token: API_TOKEN, body: '{}' });
      expect(response.status, path).toBe(404);
    }
    expect((await call(market, '/v1/demo-user')).status).toBe(200);
  });

  it('serves the demo user in sandbox only', async () => {
    const sandbox = await makeMarket();
    expect(await (await call(sandbox.market, '/v1/demo-user')).json()).toMatchObject({ id: 'demo-user-1' });
    // Production refuses the memory store; one that claims durability stands in for a database.
    const durable = { ...createMemoryStore(), durable: true } as unknown as MemoryStore;
    const production = await makeMarket({ config: { mode: 'production' }, store: durable });
    expect((await call(production.market, '/v1/demo-user')).status).toBe(404);
  });

  it('reads a demo user given as a function on every request (the users as stored now)', async () => {
    let pushes = 0;
    const { market } = await makeMarket({
      demoUser: async () => ({ id: 'user-an', session_token: 's1', claims: { pushes } }),
    });
    expect(await (await call(market, '/v1/demo-user')).json()).toEqual({
      id: 'user-an',
      session_token: 's1',
      claims: { pushes: 0 },
    });
    pushes = 1;
    expect((await (await call(market, '/v1/demo-user')).json()).claims).toEqual({ pushes: 1 });
  });

  it('honours a custom prefix and custom paths', async () => {
    const { market, store } = await makeMarket({
      paths: {
        prefix: '/bnpl/api',
        bnplRedirect: '/back/:id',
        offerFilter: '/filter',
        webhook: '/hooks/bnpl',
      },
    });
    await store.insertOrder({
      id: 'o1',
      referenceId: 'r1',
      totalAmount: { value: '1', currency: 'VND' },
      orderLines: [],
      status: 'PENDING',
      requestFingerprint: 'x',
    });
    expect(market.webhookUrl).toBe(`${ORIGIN}/bnpl/api/hooks/bnpl`);
    expect((await call(market, '/bnpl/api/back/o1')).status).toBe(302);
    expect((await call(market, '/v1/demo-user')).status).toBe(404);
    expect((await call(market, '/bnpl/api/filter', { method: 'POST' })).status).toBe(401);
    expect(market.ownsPath('/bnpl/api/anything')).toBe(true);
    expect(market.ownsPath('/health')).toBe(false);
  });

  it('answers plain data through the answerer its handle carries', async () => {
    const { market } = await makeMarket();
    const respond = answererOf(market.handle)!;
    const answer = await respond(
      new Request(`${ORIGIN}/v1/demo-user`, { headers: { 'x-request-id': 'r1' } }),
    );
    expect(answer.status).toBe(200);
    expect(answer.headers).toEqual({ 'content-type': 'application/json', 'x-request-id': 'r1' });
    expect(JSON.parse(new TextDecoder().decode(answer.body!))).toMatchObject({ id: 'demo-user-1' });
    const problem = await respond(new Request(`${ORIGIN}/v1/nope`));
    expect(problem.status).toBe(404);
    expect(problem.headers['content-type']).toBe('application/problem+json');
  });

  it('strips a basePath given by the adapter', async () => {
    const { market } = await makeMarket();
    const response = await market.handle(new Request(`${ORIGIN}/shop/v1/demo-user`), { basePath: '/shop' });
    expect(response.status).toBe(200);
    const outside = await market.handle(new Request(`${ORIGIN}/v1/demo-user`), { basePath: '/shop' });
    expect(outside.status).toBe(404);
  });

  it('turns a throwing hook into a 500 that hides the details, logged with the request ID', async () => {
    const logger = { debug: vi.fn(), info: vi.fn(), warn: vi.fn(), error: vi.fn() };
    const { market } = await makeMarket({
      logger,
      hooks: {
        async authenticateInternalAPIClient() {
          throw new Error('database password is hunter2');
        },
      },
    });
    const response = await call(market, '/v1/orders', {
      method: 'POST',
      token: API_TOKEN,
      body: '{}',
      headers: { 'x-request-id': 'req-500' },
    });
    expect(response.status).toBe(500);
    const text = await response.text();
    expect(text).not.toContain('hunter2');
    expect(text).not.toContain('authenticateInternalAPIClient');
    expect(JSON.parse(text)).toMatchObject({ code: 'internal', detail: 'An internal error occurred.' });
    expect(logger.error).toHaveBeenCalledOnce();
    const [fields] = logger.error.mock.calls[0]!;
    expect(fields).toMatchObject({
      requestId: 'req-500',
      hook: 'authenticateInternalAPIClient',
      route: 'createOrder',
    });
  });

  it('lets a hook answer with a KitError of its choice', async () => {
    const { KitError } = await import('../src/errors.js');
    const { market } = await makeMarket({
      hooks: {
        async authenticateInternalAPIClient() {
          throw new KitError('forbidden', 'This API key may not create orders');
        },
      },
    });
    const response = await call(market, '/v1/orders', { method: 'POST', body: '{}' });
    expect(response.status).toBe(403);
    expect((await response.json()).detail).toBe('This API key may not create orders');
  });

  it('fails a hook that never settles with a 500 instead of hanging', async () => {
    vi.useFakeTimers();
    try {
      const { market } = await makeMarket({
        limits: { hookTimeoutMs: 5_000 },
        hooks: { authenticateInternalAPIClient: () => new Promise(() => {}) },
      });
      const pending = call(market, '/v1/orders', { method: 'POST', body: '{}' });
      await vi.advanceTimersByTimeAsync(5_000);
      const response = await pending;
      expect(response.status).toBe(500);
    } finally {
      vi.useRealTimers();
    }
  });
});

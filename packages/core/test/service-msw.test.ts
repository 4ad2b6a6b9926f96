/**
 * A market's tests mock the service with msw. msw replaces the global fetch and Node's http
 * client's `request` when it starts listening; the service client must reach msw either way: when
 * msw started after core loaded (the global fetch is replaced: the client uses it), and when it
 * started first, e.g. in a setup file (then core found msw's fetch as "the runtime's" and calls
 * through node:http, which msw intercepts as well).
 */
import { HttpResponse, http } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { ORDERS, wireServiceOrder } from './service-support.js';

const BASE = 'https://bnpl.test.invalid';
const msw = setupServer(
  http.post(`${BASE}/v1/token`, () =>
    HttpResponse.json({ success: true, data: { access_token: 'tok-1', expires_in: 3600 } }),
  ),
  http.get(`${BASE}${ORDERS}/:id`, ({ params }) =>
    HttpResponse.json({ success: true, data: wireServiceOrder({ id: params.id }) }),
  ),
);

afterEach(() => {
  msw.close();
  vi.resetModules();
});
afterAll(() => msw.close());

async function getOrderThroughAFreshCore(): Promise<string> {
  const core = await import('../src/index.js');
  const client = core.createServiceClient({ baseUrl: BASE, apiKey: 'key-123456', retries: 0 });
  return (await client.getOrder('ord-msw')).id;
}

describe('the service client under msw', () => {
  it('reaches msw when msw started after core loaded', async () => {
    vi.resetModules();
    await import('../src/index.js');
    msw.listen({ onUnhandledRequest: 'error' });
    expect(await getOrderThroughAFreshCore()).toBe('ord-msw');
  });

  it('reaches msw when msw started before core loaded (a setup file)', async () => {
    msw.listen({ onUnhandledRequest: 'error' });
    vi.resetModules();
    expect(await getOrderThroughAFreshCore()).toBe('ord-msw');
  });
});

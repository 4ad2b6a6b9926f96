/** The shop backend: the page and its assets, sign-in, checkout through the market, order status. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDemoShopHandler, type DemoShopOptions, demoUsersFrom } from '../src/index.js';
import { type Stand, startStand } from './support/stand.js';

let stand: Stand;
beforeAll(async () => {
  stand = await startStand('basic');
});
afterAll(() => stand.close());

// biome-ignore lint/suspicious/noExplicitAny: tests read arbitrary JSON
type Json = any;
type ShopInit = RequestInit & { token?: string | undefined };

async function shop(path: string, init: ShopInit = {}): Promise<{ status: number; json: Json }> {
  const headers = new Headers(init.headers);
  if (init.token) headers.set('authorization', `Bearer ${init.token}`);
  if (init.body) headers.set('content-type', 'application/json');
  const response = await fetch(`${stand.url}${path}`, { ...init, headers });
  return { status: response.status, json: await response.json().catch(() => undefined) };
}

const checkout = (token: string | undefined, items: unknown) =>
  shop('/shop/checkout', { method: 'POST', token, body: JSON.stringify({ items }) });

describe('the storefront page', () => {
  it('serves HTML with a strict CSP and the browser config, never the market token', async () => {
    const response = await fetch(`${stand.url}/`);
    const body = await response.text();
    expect(response.status).toBe(200);
    const csp = response.headers.get('content-security-policy')!;
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("frame-src 'self'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(body).toContain('Ceramic tea set');
    expect(body).toContain('450,000 VND');
    const config = JSON.parse(/id="shop-config">([^<]*)</.exec(body)![1]!);
    expect(config).toMatchObject({ mode: 'basic', serviceUrl: '/sandbox-service', marketId: 'demo-org' });
    expect(body).not.toMatch(/mkt_/);
  });

  it('bundles the browser script on first request, and serves product pictures', async () => {
    const script = await fetch(`${stand.url}/assets/shop.js`);
    expect(script.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    const text = await script.text();
    expect(text).toContain('bnpl-kit');
    expect(text).toContain('/shop/checkout');
    const image = await fetch(`${stand.url}/assets/products/tea-set.svg`);
    expect(image.headers.get('content-type')).toBe('image/svg+xml');
    expect(await image.text()).toMatch(/^<svg /);
    expect((await fetch(`${stand.url}/assets/products/nope.svg`)).status).toBe(404);
  });
});

describe('sign-in, checkout and orders', () => {
  const signIn = async (userId: string) => {
    const { json } = await shop('/shop/login', { method: 'POST', body: JSON.stringify({ user_id: userId }) });
    return json.session_token as string;
  };

  it('lists the demo users and signs one in', async () => {
    const { json } = await shop('/shop/users');
    expect(json.users.map((u: { id: string }) => u.id)).toEqual(['user-an', 'user-binh']);
    expect(json.users[0]).not.toHaveProperty('session_token');
    const unknown = await shop('/shop/login', { method: 'POST', body: JSON.stringify({ user_id: 'x' }) });
    expect(unknown.status).toBe(404);
    expect(await signIn('user-an')).toBe(stand.users[0]!.sessionToken);
  });

  it('creates the order through the market with prices from the server', async () => {
    const token = await signIn('user-an');
    const created = await checkout(token, [
      { product_id: 'tea-set', quantity: 2, price: '1' },
      { product_id: 'headphones', quantity: 1 },
    ]);
    expect(created.status).toBe(201);
    expect(created.json.order).toMatchObject({
      totalAmount: { value: '2190000', currency: 'VND' },
      status: 'PENDING',
    });
    const atService = stand.sandbox.orders.get(created.json.order.id)!;
    expect(
      atService.orderLines.map((l) => [l.referenceId, l.quantity, l.unitPrice.value, l.subtotal.value]),
    ).toEqual([
      ['tea-set', 2, '450000', '900000'],
      ['headphones', 1, '1290000', '1290000'],
    ]);
    expect(atService.orderLines[0]!.imageUrl).toBe(`${stand.url}/assets/products/tea-set.svg`);
    expect(atService.referenceId).toBe(created.json.order.reference_id);
  });

  it('refuses checkout without a session, an unknown product or a bad quantity', async () => {
    const token = await signIn('user-an');
    expect((await checkout(undefined, [{ product_id: 'tea-set', quantity: 1 }])).status).toBe(401);
    expect((await checkout('sess_forged', [{ product_id: 'tea-set', quantity: 1 }])).status).toBe(401);
    const unknown = await checkout(token, [{ product_id: 'yacht', quantity: 1 }]);
    expect(unknown.status).toBe(400);
    expect(unknown.json.detail).toMatch(/yacht/);
    expect((await checkout(token, [{ product_id: 'tea-set', quantity: 0.5 }])).status).toBe(400);
    expect((await checkout(token, [])).status).toBe(400);
  });

  it('shows the status the market’s webhooks store, to the buyer only', async () => {
    const token = await signIn('user-an');
    const { json } = await checkout(token, [{ product_id: 'silk-scarf', quantity: 1 }]);
    const id = json.order.id as string;
    expect((await shop(`/shop/orders/${id}`, { token })).json.order.status).toBe('PENDING');
    stand.sandbox.orders.approve(id);
    await stand.sandbox.webhooks.idle();
    const after = await shop(`/shop/orders/${id}`, { token });
    expect(after.json.order).toMatchObject({ id, status: 'APPROVED', lines: [{ product_id: 'silk-scarf' }] });
    const list = await shop('/shop/orders', { token });
    expect(list.json.orders[0]).toMatchObject({ id, status: 'APPROVED' });
    const other = await signIn('user-binh');
    expect((await shop(`/shop/orders/${id}`, { token: other })).status).toBe(404);
  });
});

describe('request bodies', () => {
  const login = (body: BodyInit, contentType = 'application/json') =>
    fetch(`${stand.url}/shop/login`, { method: 'POST', headers: { 'content-type': contentType }, body });

  it('refuses an endless streamed body (no Content-Length) with a 413 problem', async () => {
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        controller.enqueue(new Uint8Array(64 * 1024).fill(0x20));
      },
    });
    const response = await fetch(`${stand.url}/shop/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body,
      duplex: 'half',
    } as RequestInit);
    expect(response.status).toBe(413);
    expect((await response.json()).code).toBe('payload_too_large');
  });

  it.each([
    ['not JSON', '{', 'application/json', 400, 'invalid_json'],
    ['a JSON array', '[1]', 'application/json', 400, 'validation_failed'],
    ['form data', 'user_id=user-an', 'application/x-www-form-urlencoded', 415, 'unsupported_media_type'],
  ])('answers %s with a problem', async (_what, body, contentType, status, code) => {
    const response = await login(body, contentType);
    expect(response.status).toBe(status);
    expect(response.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    expect((await response.json()).code).toBe(code);
  });
});

describe('createDemoShopHandler over HTTP', () => {
  const base = (overrides: Partial<DemoShopOptions>): DemoShopOptions => ({
    marketBaseUrl: stand.url,
    marketApiToken: 'wrong-token',
    mode: 'basic',
    serviceUrl: '/sandbox-service',
    apiKey: 'sk_x',
    marketId: 'demo-org',
    demoUsers: stand.users,
    ...overrides,
  });

  it('passes a market refusal on as a 502 without leaking the token', async () => {
    const handler = createDemoShopHandler(base({}));
    const response = await handler.handle(
      new Request('http://shop.test/shop/checkout', {
        method: 'POST',
        headers: {
          authorization: `Bearer ${stand.users[0]!.sessionToken}`,
          'content-type': 'application/json',
        },
        body: JSON.stringify({ items: [{ product_id: 'tea-set', quantity: 1 }] }),
      }),
    );
    expect(response.status).toBe(502);
    const text = await response.text();
    expect(text).toContain('upstream_rejected');
    expect(text).not.toContain('wrong-token');
  });

  it('reads the status through the market API when no store is given', async () => {
    const token = stand.users[0]!.sessionToken;
    const handler = createDemoShopHandler(base({ marketApiToken: stand.marketToken }));
    const created = await handler.handle(
      new Request('http://shop.test/shop/checkout', {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ items: [{ product_id: 'rice-cooker', quantity: 1 }] }),
      }),
    );
    const { order } = (await created.json()) as { order: { id: string } };
    stand.sandbox.orders.reject(order.id);
    const read = await handler.handle(
      new Request(`http://shop.test/shop/orders/${order.id}`, {
        headers: { authorization: `Bearer ${token}` },
      }),
    );
    expect(((await read.json()) as { order: { status: string } }).order.status).toBe('CANCELED');
  });

  it.each([
    ['POST', '/'],
    ['GET', '/shop/login'],
    ['GET', '/shop/nowhere'],
    ['GET', '/assets/products/tea-set.png'],
    ['GET', '/shop/orders/%E0%A4%A'],
  ])('answers %s %s with a not_found problem', async (method, path) => {
    const handler = createDemoShopHandler(base({}));
    const response = await handler.handle(
      new Request(`http://shop.test${path}`, {
        method,
        headers: { authorization: `Bearer ${stand.users[0]!.sessionToken}` },
      }),
    );
    expect(response.status).toBe(404);
    expect(response.headers.get('content-type')).toBe('application/problem+json');
    expect(((await response.json()) as { code: string }).code).toBe('not_found');
  });

  it('refuses unusable options, all at once', () => {
    expect(() =>
      createDemoShopHandler(
        base({ market: { handle: async () => new Response() }, serviceUrl: 'x', apiKey: '' }),
      ),
    ).toThrow(/exactly one of market or marketBaseUrl.*serviceUrl.*apiKey/);
  });
});

describe('demoUsersFrom', () => {
  it('reads the demo-user contract: users with session tokens, names from profile claims', () => {
    expect(
      demoUsersFrom({
        id: 'u1',
        session_token: 't1',
        users: [
          {
            id: 'u1',
            session_token: 't1',
            claims: { profile: { given_name: 'An', family_name: 'Nguyễn' }, email: { email: 'an@x.vn' } },
          },
          { id: 'u2' },
          { id: 'u3', session_token: 't3', name: 'Bình' },
        ],
      }),
    ).toEqual([
      {
        id: 'u1',
        sessionToken: 't1',
        name: 'Nguyễn An',
        firstName: 'An',
        lastName: 'Nguyễn',
        email: 'an@x.vn',
      },
      { id: 'u3', sessionToken: 't3', name: 'Bình' },
    ]);
    expect(demoUsersFrom({ id: 'solo', session_token: 's' })).toEqual([
      { id: 'solo', sessionToken: 's', name: 'solo' },
    ]);
    expect(demoUsersFrom('nope')).toEqual([]);
  });
});

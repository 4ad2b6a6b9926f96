/** The hosted BNPL page: rendering, escaping, CSP, and its approve/reject endpoints. */
import { afterEach, describe, expect, it } from 'vitest';
import { createManualClock, createSandbox, type Sandbox } from '../src/index.js';
import { callPage, csp, framed, openBnplPage, openPage, SESSION, SHOP_ORIGIN } from './pages-support.js';
import { BASE_URL, directClient, fakeMarket, marketOrg, orderInput, verify } from './support.js';

let sandbox: Sandbox | undefined;
afterEach(() => sandbox?.close());

async function setup(orgOverrides: Record<string, unknown> = {}) {
  const market = fakeMarket();
  sandbox = createSandbox({
    organizations: [marketOrg({ apiBaseUrl: 'https://market.test', name: 'Market Org', ...orgOverrides })],
    fetch: market.fetch,
    clock: createManualClock(),
  });
  const client = directClient(sandbox);
  const order = await client.createOrder(orderInput());
  const { credifyId } = await client.checkAvailability({ localId: 'user-1', productTypes: ['consumerBNPL'] });
  return { sandbox, market, client, order, credifyId: credifyId! };
}

const bnplPath = (orderId: string, action: string) => `/pages/bnpl/${encodeURIComponent(orderId)}/${action}`;

describe('GET /pages/bnpl', () => {
  it('shows the order and the offer, framed only by the market origin, scripts by nonce', async () => {
    const { sandbox, order, credifyId } = await setup();
    const page = await openBnplPage(sandbox, order.id, credifyId);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(page.headers.get('cache-control')).toBe('no-store');
    expect(page.headers.get('x-content-type-options')).toBe('nosniff');
    const policy = csp(page.headers);
    expect(policy['default-src']).toBe("'none'");
    expect(policy['frame-ancestors']).toBe(SHOP_ORIGIN);
    expect(policy['connect-src']).toBe("'self'");
    const nonce = /^'nonce-([A-Za-z0-9_-]{20,})'$/.exec(policy['script-src']!)?.[1];
    expect(nonce).toBeDefined();
    expect(policy['style-src']).toBe(`'nonce-${nonce}'`);
    // Every executable script carries the nonce; the data block is JSON, not script.
    const scripts = [...page.body.matchAll(/<script([^>]*)>/g)].map((m) => m[1]!.trim());
    expect(scripts).toEqual(['type="application/json" id="page-data"', `nonce="${nonce}"`]);
    expect(page.body).toContain('Rice cooker × 2');
    expect(page.body).toContain('300,000 VND');
    expect(page.body).toContain('Pay later in 3 monthly instalments');
    expect(page.body).toContain('100,000 VND');
    expect(page.data).toMatchObject({
      orderId: order.id,
      credifyId,
      dataSharing: false,
      frame: { origin: SHOP_ORIGIN, session: SESSION },
      redirectUrl: `https://market.test/v1/bnpl/orders/${order.id}/redirect`,
      decided: null,
      appName: 'Demo Shop',
    });
    expect(page.data.pageSession).toMatch(/^[A-Za-z0-9_-]{43}$/);
    // A fresh nonce per response.
    const again = await openPage(sandbox, '/pages/bnpl', { ...framed, order_id: order.id });
    expect(csp(again.headers)['script-src']).not.toBe(policy['script-src']);
  });

  it('escapes everything the market or the URL supplies', async () => {
    const market = fakeMarket();
    sandbox = createSandbox({
      organizations: [marketOrg()],
      fetch: market.fetch,
      clock: createManualClock(),
    });
    const input = orderInput('<ref>&"');
    input.orderLines[0]!.name = '<img src=x onerror=alert(1)>';
    const order = await directClient(sandbox).createOrder(input);
    const appName = '"></title><script>alert(2)</script>';
    const page = await openPage(sandbox, '/pages/bnpl', { ...framed, order_id: order.id, app_name: appName });
    expect(page.status).toBe(200);
    expect(page.body).not.toContain('<img src=x');
    expect(page.body).not.toContain('<script>alert(2)');
    expect(page.body).toContain('&lt;img src=x onerror=alert(1)&gt;');
    expect(page.body).toContain('&quot;&gt;&lt;/title&gt;&lt;script&gt;alert(2)&lt;/script&gt;');
    expect(page.body).toContain('Order &lt;ref&gt;&amp;&quot;');
    // The JSON block cannot be closed from inside a string.
    expect(page.body).toContain('\\u003c/title\\u003e\\u003cscript\\u003e');
    expect(page.data.appName).toBe(appName);
  });

  it.each([
    ['a script URL', 'javascript:alert(1)'],
    ['a path after the origin', `${SHOP_ORIGIN}/checkout`],
    ['a wildcard', '*'],
    ['"null"', 'null'],
    ['two origins', `${SHOP_ORIGIN} https://evil.example`],
    ['a directive injection', `${SHOP_ORIGIN}; script-src *`],
    ['a non-http scheme', 'ftp://shop.example'],
  ])('refuses %s as the origin, and cannot be framed then', async (_, origin) => {
    const { sandbox, order } = await setup();
    const page = await openPage(sandbox, '/pages/bnpl', { ...framed, origin, order_id: order.id });
    expect(page.status).toBe(400);
    expect(page.body).toContain('origin parameter');
    expect(csp(page.headers)['frame-ancestors']).toBe("'none'");
    expect(page.data.pageSession).toBe('');
  });

  it('needs origin and session together, and a well-formed session', async () => {
    const { sandbox, order } = await setup();
    const noSession = await openPage(sandbox, '/pages/bnpl', { origin: SHOP_ORIGIN, order_id: order.id });
    expect(noSession.status).toBe(400);
    const badSession = await openPage(sandbox, '/pages/bnpl', {
      ...framed,
      session: 'x',
      order_id: order.id,
    });
    expect(badSession.status).toBe(400);
    const noOrder = await openPage(sandbox, '/pages/bnpl', framed);
    expect(noOrder.status).toBe(400);
  });

  it('opened top-level, cannot be framed at all and links to the market redirect', async () => {
    const { sandbox, order } = await setup();
    const page = await openPage(sandbox, '/pages/bnpl', { order_id: order.id });
    expect(page.status).toBe(200);
    expect(csp(page.headers)['frame-ancestors']).toBe("'none'");
    expect(page.data.frame).toBeNull();
    expect(page.data.redirectUrl).toBe(`https://market.test/v1/bnpl/orders/${order.id}/redirect`);
    expect(page.body).toContain('Pay later at Market Org');
  });

  it('does not repeat /v1 when the API base URL already ends with it', async () => {
    const { sandbox, order } = await setup({ apiBaseUrl: 'https://market.test/shop/v1/' });
    const page = await openPage(sandbox, '/pages/bnpl', { order_id: order.id });
    expect(page.data.redirectUrl).toBe(`https://market.test/shop/v1/bnpl/orders/${order.id}/redirect`);
  });

  it('answers an unknown order with a 404 page that the market may still frame', async () => {
    const { sandbox } = await setup();
    const page = await openPage(sandbox, '/pages/bnpl', { ...framed, order_id: 'ord_nope' });
    expect(page.status).toBe(404);
    expect(page.body).toContain('This order does not exist.');
    expect(csp(page.headers)['frame-ancestors']).toBe(SHOP_ORIGIN);
  });

  it('shows an order that was already decided as such', async () => {
    const { sandbox, order } = await setup();
    sandbox.orders.approve(order.id);
    const page = await openPage(sandbox, '/pages/bnpl', { ...framed, order_id: order.id });
    expect(page.data.decided).toEqual({ status: 'approved', paid: true });
    expect(page.body).toContain('This order is already approved (APPROVED).');
  });

  it('ignores a service user ID that belongs to no user of this market', async () => {
    const { sandbox, order } = await setup();
    const page = await openBnplPage(sandbox, order.id, 'crf_x');
    expect(page.data.credifyId).toBeNull();
  });
});

describe('the BNPL page endpoints', () => {
  it('approve drives the provider action: APPROVED, with signed webhooks', async () => {
    const { sandbox, market, order, credifyId } = await setup();
    const page = await openBnplPage(sandbox, order.id, credifyId);
    const answer = await callPage(sandbox, 'POST', bnplPath(order.id, 'approve'), page.data.pageSession, {
      'sec-fetch-site': 'same-origin',
    });
    expect(answer).toEqual({
      status: 200,
      json: { order_id: order.id, order_status: 'APPROVED', is_payment_completed: true },
    });
    expect(sandbox.orders.get(order.id)).toMatchObject({ status: 'APPROVED', credifyId });
    await sandbox.webhooks.idle();
    expect(market.payloads()).toEqual([
      { type: 'BNPL_ORDER_STATUS_UPDATED', order_id: order.id, order_status: 'APPROVED' },
      expect.objectContaining({
        type: 'OFFER_TRANSACTION_STATUS_UPDATED',
        credify_id: credifyId,
        offer_code: 'sandbox-pay-in-3',
      }),
    ]);
    for (const webhook of market.received) await expect(verify(sandbox, webhook)).resolves.toBeDefined();
    expect(sandbox.calls.list({ kind: 'page' }).map((c) => `${c.method} ${c.path} ${c.status}`)).toEqual([
      'GET /pages/bnpl 200',
      `POST /pages/bnpl/${order.id}/approve 200`,
    ]);
  });

  it('reject drives the provider action: CANCELED, with a webhook', async () => {
    const { sandbox, market, order } = await setup();
    const page = await openPage(sandbox, '/pages/bnpl', { ...framed, order_id: order.id });
    const answer = await callPage(sandbox, 'POST', bnplPath(order.id, 'reject'), page.data.pageSession);
    expect(answer.json).toEqual({
      order_id: order.id,
      order_status: 'CANCELED',
      is_payment_completed: false,
    });
    await sandbox.webhooks.idle();
    expect(market.payloads()).toEqual([
      { type: 'BNPL_ORDER_STATUS_UPDATED', order_id: order.id, order_status: 'CANCELED' },
    ]);
  });

  it('refuses a request without a live page session of that order', async () => {
    const { sandbox, client, order } = await setup();
    const other = await client.createOrder(orderInput('order-2'));
    const page = await openPage(sandbox, '/pages/bnpl', { ...framed, order_id: other.id });
    const none = await callPage(sandbox, 'POST', bnplPath(order.id, 'approve'), undefined);
    expect(none.status).toBe(401);
    expect(none.json.code).toBe('unauthenticated');
    const forged = await callPage(sandbox, 'POST', bnplPath(order.id, 'approve'), 'A'.repeat(43));
    expect(forged.status).toBe(401);
    const otherOrder = await callPage(sandbox, 'POST', bnplPath(order.id, 'approve'), page.data.pageSession);
    expect(otherOrder.status).toBe(403);
    const crossSite = await callPage(sandbox, 'POST', bnplPath(other.id, 'approve'), page.data.pageSession, {
      'sec-fetch-site': 'cross-site',
    });
    expect(crossSite.status).toBe(403);
    expect(sandbox.orders.get(order.id)?.status).toBe('PENDING');
    expect(sandbox.orders.get(other.id)?.status).toBe('PENDING');
  });

  it('page sessions expire after 30 minutes', async () => {
    const { sandbox, order } = await setup();
    const page = await openPage(sandbox, '/pages/bnpl', { ...framed, order_id: order.id });
    await sandbox.tick(30 * 60_000);
    const late = await callPage(sandbox, 'POST', bnplPath(order.id, 'approve'), page.data.pageSession);
    expect(late.status).toBe(401);
  });

  it('a decided order cannot be decided again (409), and GET on an action is a 405', async () => {
    const { sandbox, order } = await setup();
    const page = await openPage(sandbox, '/pages/bnpl', { ...framed, order_id: order.id });
    await callPage(sandbox, 'POST', bnplPath(order.id, 'approve'), page.data.pageSession);
    const twice = await callPage(sandbox, 'POST', bnplPath(order.id, 'reject'), page.data.pageSession);
    expect(twice.status).toBe(409);
    expect(twice.json.code).toBe('invalid_transition');
    const wrongMethod = await callPage(sandbox, 'GET', bnplPath(order.id, 'approve'), page.data.pageSession);
    expect(wrongMethod.status).toBe(405);
    const postPage = await callPage(sandbox, 'POST', '/pages/bnpl', undefined);
    expect(postPage.status).toBe(405);
    const unknown = await callPage(sandbox, 'GET', '/pages/elsewhere', undefined);
    expect(unknown.status).toBe(404);
  });

  it('names the allowed method with a 405', async () => {
    const { sandbox, order } = await setup();
    const allowOf = async (method: string, path: string) => {
      const response = await sandbox.handle(new Request(`${BASE_URL}${path}`, { method }));
      return [response.status, response.headers.get('allow')];
    };
    expect(await allowOf('GET', bnplPath(order.id, 'approve'))).toEqual([405, 'POST']);
    expect(await allowOf('POST', '/pages/bnpl/')).toEqual([405, 'GET']);
    expect(await allowOf('DELETE', '/pages/passport')).toEqual([405, 'GET']);
  });
});

/** The hosted pages in data-sharing mode (claims first) and the passport page with its Repay action. */
import { buildClaimObject } from '@bnpl-kit/core';
import { generateKeyPair } from '@bnpl-kit/core/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { createManualClock, createSandbox, type Sandbox } from '../src/index.js';
import { callPage, framed, openBnplPage, openPage } from './pages-support.js';
import { directClient, FILTER_URL, fakeMarket, marketOrg, orderInput, pushClaims } from './support.js';

let sandbox: Sandbox | undefined;
afterEach(() => sandbox?.close());

describe('data-sharing mode', () => {
  async function setup() {
    const keys = await generateKeyPair();
    const market = fakeMarket({
      [FILTER_URL]: () =>
        Response.json({
          data: {
            offers: [
              {
                code: 'sandbox-pay-in-3',
                evaluation_result: { rank: 1, used_scopes: [], requested_scopes: [] },
              },
            ],
          },
        }),
    });
    sandbox = createSandbox({
      organizations: [marketOrg({ offerFilteringUrl: FILTER_URL, signingKey: keys.privateKeyPem })],
      fetch: market.fetch,
      clock: createManualClock(),
    });
    const client = directClient(sandbox);
    const order = await client.createOrder(orderInput());
    const { credifyId } = await client.checkAvailability({ localId: 'user-1', productTypes: [] });
    const push = async () => {
      const claims = buildClaimObject({
        organizationId: 'org-market',
        profile: { email: 'an@example.com', phone: '+84901234567' },
        providingBasicProfile: 'email,phone',
        withCommitments: true,
      });
      await pushClaims(client, { claims, credifyId: credifyId!, signingKey: keys.seed });
    };
    return { sandbox, order, credifyId: credifyId!, push };
  }

  it('the page asks for claims first, and approving needs them', async () => {
    const { sandbox, order, credifyId, push } = await setup();
    const page = await openBnplPage(sandbox, order.id, credifyId);
    expect(page.data).toMatchObject({ dataSharing: true, credifyId });
    const approve = `/pages/bnpl/${order.id}/approve`;
    const early = await callPage(sandbox, 'POST', approve, page.data.pageSession);
    expect(early.status).toBe(409);
    expect(early.json.detail).toMatch(/push-claims/);
    expect(sandbox.orders.get(order.id)?.status).toBe('PENDING');

    await push();
    const shared = await callPage(
      sandbox,
      'GET',
      `/pages/bnpl/${order.id}/shared-claims`,
      page.data.pageSession,
    );
    expect(shared.json.scopes.sort()).toEqual(['email', 'phone']);
    const approved = await callPage(sandbox, 'POST', approve, page.data.pageSession);
    expect(approved.json.order_status).toBe('APPROVED');
  });

  it('without a service user ID the page cannot go on', async () => {
    const { sandbox, order } = await setup();
    const page = await openPage(sandbox, '/pages/bnpl', { ...framed, order_id: order.id });
    expect(page.data).toMatchObject({ dataSharing: true, credifyId: null });
  });
});

describe('GET /pages/passport and Repay', () => {
  async function setup() {
    const market = fakeMarket();
    sandbox = createSandbox({
      organizations: [marketOrg()],
      fetch: market.fetch,
      clock: createManualClock(),
    });
    const client = directClient(sandbox);
    const { credifyId } = await client.checkAvailability({ localId: 'user-1', productTypes: [] });
    const { credifyId: otherUser } = await client.checkAvailability({ localId: 'user-2', productTypes: [] });
    const first = await client.createOrder(orderInput('order-1'));
    await sandbox.tick(1000);
    const second = await client.createOrder(orderInput('order-2'));
    const notMine = await client.createOrder(orderInput('order-3'));
    sandbox.orders.approve(first.id, { credifyId: credifyId! });
    sandbox.orders.approve(second.id, { credifyId: credifyId! });
    sandbox.orders.approve(notMine.id, { credifyId: otherUser! });
    const open = (query: Record<string, string> = {}) =>
      openPage(sandbox!, '/pages/passport', {
        ...framed,
        credify_id: credifyId!,
        market_id: 'org-market',
        product_types: 'consumerBNPL',
        ...query,
      });
    return { sandbox, first, second, notMine, credifyId: credifyId!, open };
  }

  it('shows each order’s chosen plan with its instalments', async () => {
    const { first, second, open } = await setup();
    const page = await open();
    // Approved with the default offer: 300,000 VND in 3 instalments of 100,000.
    for (const order of [first, second]) {
      const row = page.body.slice(page.body.indexOf(`data-order-id="${order.id}"`));
      expect(row.slice(0, row.indexOf('</li>'))).toContain(
        '<span class="plan-chosen" data-offer="sandbox-pay-in-3">Plan: Pay later in 3 monthly instalments · 3 × 100,000 VND</span>',
      );
    }
  });

  it('lists the user’s orders newest first with what is outstanding, and repays one', async () => {
    const { sandbox, first, second, notMine, open } = await setup();
    const page = await open();
    expect(page.status).toBe(200);
    const rows = [...page.body.matchAll(/data-order-id="([^"]+)"/g)].map((m) => m[1]);
    expect(rows).toEqual([second.id, first.id]);
    expect(page.body).toContain('id="outstanding">600,000 VND<');
    expect(page.body).toContain(`data-repay="${first.id}">Repay 300,000 VND<`);

    const repay = `/pages/passport/orders/${first.id}/repay`;
    const answer = await callPage(sandbox, 'POST', repay, page.data.pageSession);
    expect(answer.json).toEqual({
      order_id: first.id,
      repaid: true,
      outstanding: { value: '300000', currency: 'VND' },
      outstanding_text: '300,000 VND',
    });
    expect(sandbox.state.repayments.get(first.id)).toMatchObject({ amount: { value: '300000' } });
    const twice = await callPage(sandbox, 'POST', repay, page.data.pageSession);
    expect(twice.status).toBe(409);
    const someoneElses = `/pages/passport/orders/${notMine.id}/repay`;
    expect((await callPage(sandbox, 'POST', someoneElses, page.data.pageSession)).status).toBe(403);

    const reopened = await open();
    expect(reopened.body).toContain('<span class="badge good">Repaid</span>');
    expect(reopened.body).toContain('id="outstanding">300,000 VND<');
  });

  it('a BNPL page session cannot repay, and an unknown account is a 404', async () => {
    const { sandbox, first, open } = await setup();
    const bnpl = await openPage(sandbox, '/pages/bnpl', { ...framed, order_id: first.id });
    const answer = await callPage(
      sandbox,
      'POST',
      `/pages/passport/orders/${first.id}/repay`,
      bnpl.data.pageSession,
    );
    expect(answer.status).toBe(403);
    expect((await open({ market_id: 'org-other' })).status).toBe(404);
    expect((await open({ credify_id: 'crf_unknown' })).status).toBe(404);
    expect((await open({ origin: 'https://shop.example/x' })).status).toBe(400);
  });

  it('shows no orders for product types without consumer BNPL', async () => {
    const { open } = await setup();
    const page = await open({ product_types: 'somethingElse' });
    expect(page.body).toContain('No pay-later orders at');
  });
});

/**
 * What data-sharing changes on the BNPL page: the offers the market's filtering ranked for this user
 * (a loyalty member sees the loyalty offer, another user does not), the choice reaching the
 * approval, and shared scopes named as people read them.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { createManualClock, createSandbox, type Sandbox } from '../src/index.js';
import { scopeLabel } from '../src/pages/scope-labels.js';
import { callPage, openBnplPage } from './pages-support.js';
import { directClient, FILTER_URL, fakeMarket, marketOrg, orderInput } from './support.js';

let sandbox: Sandbox | undefined;
afterEach(() => sandbox?.close());

const BASIC = { code: 'pay-in-3', name: 'Pay later in 3 monthly instalments', required_custom_scopes: [] };
const LOYALTY = {
  code: 'gold-pay-in-6',
  name: 'Pay later in 6 monthly instalments',
  required_custom_scopes: [['org-market:loyalty']],
};

/** The market ranks the loyalty offer for `member` only. */
async function setup() {
  const market = fakeMarket({
    [FILTER_URL]: async (request) => {
      const body = JSON.parse(request.body) as { local_id?: string };
      const offers = body.local_id === 'member' ? [BASIC, LOYALTY] : [BASIC];
      const evaluation_result = { rank: 1, used_scopes: [], requested_scopes: [] };
      return Response.json({ data: { offers: offers.map((o) => ({ ...o, evaluation_result })) } });
    },
  });
  sandbox = createSandbox({
    organizations: [marketOrg({ offerFilteringUrl: FILTER_URL, approvedOffers: [BASIC, LOYALTY] })],
    fetch: market.fetch,
    clock: createManualClock(),
  });
  const client = directClient(sandbox);
  const user = async (localId: string) =>
    (await client.checkAvailability({ localId, productTypes: [] })).credifyId!;
  return { sandbox, client, member: await user('member'), other: await user('other') };
}

describe('offers on the BNPL page', () => {
  it('shows the loyalty offer to the user the market ranked it for, and not to another', async () => {
    const { sandbox, client, member, other } = await setup();
    const order = await client.createOrder(orderInput());
    const forMember = await openBnplPage(sandbox, order.id, member);
    expect(forMember.body).toContain('data-offer="gold-pay-in-6"');
    expect(forMember.body).toContain('Unlocked by what Demo Shop shared: Loyalty membership');
    expect(forMember.body).toContain('Choose how to pay later');
    const forOther = await openBnplPage(sandbox, order.id, other);
    expect(forOther.body).toContain('data-offer="pay-in-3"');
    expect(forOther.body).not.toContain('gold-pay-in-6');
  });

  it('approves with the chosen offer, and refuses one the user was not offered', async () => {
    const { sandbox, client, member, other } = await setup();
    const order = await client.createOrder(orderInput('order-1'));
    // The approval checks pushed claims in data-sharing mode: record one as the market would.
    for (const credifyId of [member, other]) {
      sandbox.state.claims.set(
        credifyId,
        new Map([
          [
            'org-market:loyalty',
            {
              credifyId,
              organizationId: 'org-market',
              scopeName: 'org-market:loyalty',
              scopeHash: 'h',
              iat: 0,
              token: 't',
              receivedAt: 0,
            },
          ],
        ]),
      );
    }
    const otherPage = await openBnplPage(sandbox, order.id, other);
    const approveGold = `/pages/bnpl/${order.id}/approve?offer_code=gold-pay-in-6`;
    const refused = await callPage(sandbox, 'POST', approveGold, otherPage.data.pageSession);
    expect(refused.status).toBe(400);
    expect(sandbox.orders.get(order.id)?.status).toBe('PENDING');

    const page = await openBnplPage(sandbox, order.id, member);
    const shared = await callPage(
      sandbox,
      'GET',
      `/pages/bnpl/${order.id}/shared-claims`,
      page.data.pageSession,
    );
    expect(shared.json).toEqual({ scopes: ['org-market:loyalty'], labels: ['Loyalty membership'] });
    const approved = await callPage(sandbox, 'POST', approveGold, page.data.pageSession);
    expect(approved.status).toBe(200);
    expect(sandbox.transactions.list()).toEqual([
      expect.objectContaining({ offerCode: 'gold-pay-in-6', credifyId: member }),
    ]);
  });
});

describe('scopeLabel', () => {
  it('names standard scopes, known custom scopes and any other custom key in words', () => {
    expect(scopeLabel('phone')).toBe('Phone number');
    expect(scopeLabel('profile')).toBe('Name');
    expect(scopeLabel('org-3f9c:loyalty')).toBe('Loyalty membership');
    expect(scopeLabel('org-3f9c:purchase_history')).toBe('Purchase history');
  });

  it('words a scope named like a member every object has as any other key, not as that member', () => {
    expect(scopeLabel('constructor')).toBe('Constructor');
    expect(scopeLabel('org-3f9c:toString')).toBe('ToString');
  });
});

describe('offers without offer filtering (basic mode: no data is shared)', () => {
  const CONDITIONED = {
    code: 'points-pay-in-6',
    name: 'Pay later in 6 monthly instalments',
    conditions: [{ claim: 'loyalty_points', operator: '>=', value: 1000 }],
    required_custom_scopes: [],
  };
  // Every way an offer can need the market's claims, next to one that needs none.
  const cases = [
    ['custom scopes', LOYALTY],
    ['conditions', CONDITIONED],
  ] as const;

  it.each(cases)('never offers an offer that needs %s, and says nothing was shared', async (_, needy) => {
    sandbox = createSandbox({
      organizations: [marketOrg({ approvedOffers: [needy, BASIC] })],
      clock: createManualClock(),
    });
    const client = directClient(sandbox);
    for (const localId of ['member', 'other']) {
      const availability = await client.checkAvailability({ localId, productTypes: [] });
      expect(availability.offers.map((o) => o.code)).toEqual(['pay-in-3']);
      const order = await client.createOrder(orderInput(`order-${localId}`));
      const page = await openBnplPage(sandbox, order.id, availability.credifyId!);
      expect(page.body).toContain('data-offer="pay-in-3"');
      expect(page.body).not.toContain(needy.code);
      expect(page.body).not.toContain('Unlocked by what');
    }
  });
});

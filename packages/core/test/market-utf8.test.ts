/**
 * WIRE §2: a body that is not UTF-8 is 400 `invalid_json`, on every route that takes a body, the
 * webhook included (signed correctly, so only the encoding is wrong), and it changes nothing. The
 * routes come from the route table: a new route with a body fails here until it has a sample.
 */
import { describe, expect, it } from 'vitest';
import { MARKET_OPERATIONS, MARKET_ROUTES, type MarketOperation } from '../src/market/route-table.js';
import { READ_FILTERED_OFFERS_SCOPE } from '../src/service/routes.js';
import { signWebhook } from '../src/testing.js';
import { API_TOKEN, insertOrder, makeMarket, ORIGIN, type TestMarket, USER_TOKEN } from './market-support.js';

const SERVICE_TOKEN = 'svc-token';
const PENDING = 'svc_pending';
const APPROVED = 'svc_approved';

/** A valid body and a valid caller for each route that takes a body. */
const SAMPLES: Partial<
  Record<MarketOperation, { path: string; token?: string; body: Record<string, unknown> }>
> = {
  createOrder: {
    path: '/v1/orders',
    token: API_TOKEN,
    body: {
      reference_id: 'ref-utf8',
      total_amount: { value: '100', currency: 'VND' },
      order_lines: [
        {
          name: 'Tea',
          reference_id: 'line-1',
          image_url: 'https://shop.example/tea.png',
          product_url: 'https://shop.example/tea',
          quantity: 1,
          unit_price: { value: '100', currency: 'VND' },
          subtotal: { value: '100', currency: 'VND' },
          measurement_unit: 'EA',
        },
      ],
    },
  },
  cancelOrder: { path: `/v1/orders/${APPROVED}/cancel`, token: API_TOKEN, body: { reason: 'x' } },
  disburseOrder: { path: `/v1/orders/${APPROVED}/disburse`, token: API_TOKEN, body: { note: 'x' } },
  pushClaims: { path: '/v1/push-claims', token: USER_TOKEN, body: { id: 'u1', credify_id: 'cr-1' } },
  filterOffers: {
    path: '/v1/offers/filter',
    token: SERVICE_TOKEN,
    body: { local_id: 'u1', offers: [] },
  },
  receiveWebhook: {
    path: '/v1/webhook',
    body: { type: 'BNPL_ORDER_STATUS_UPDATED', order_id: PENDING, order_status: 'APPROVED' },
  },
};

const BAD_SEQUENCES: Record<string, number[]> = {
  '0xFF': [0xff],
  'an overlong "/"': [0xc0, 0xaf],
  'a lone surrogate encoded as UTF-8': [0xed, 0xa0, 0x80],
};

const MARK = '@@bad@@';

/** The body's JSON with the bad bytes where `MARK` was. */
function withBadBytes(body: Record<string, unknown>, bad: number[]): Uint8Array {
  const [before, after] = JSON.stringify(body).split(MARK) as [string, string];
  const encoder = new TextEncoder();
  return new Uint8Array([...encoder.encode(before), ...bad, ...encoder.encode(after)]);
}

/** The places a bad byte goes: an extra field, and inside each top-level string field. */
function variants(body: Record<string, unknown>): [string, Record<string, unknown>][] {
  const out: [string, Record<string, unknown>][] = [['an extra field', { ...body, note: `a${MARK}b` }]];
  for (const [name, value] of Object.entries(body)) {
    if (typeof value === 'string') out.push([`"${name}"`, { ...body, [name]: `${value}${MARK}` }]);
  }
  return out;
}

async function send(t: TestMarket, operation: MarketOperation, bytes: Uint8Array): Promise<Response> {
  const sample = SAMPLES[operation]!;
  const url = `${ORIGIN}${sample.path}`;
  let headers: Record<string, string> = { 'content-type': 'application/json' };
  if (MARKET_ROUTES[operation].auth === 'webhook-signature') {
    const signed = await signWebhook({
      url: t.market.webhookUrl,
      body: bytes,
      signingKey: t.serviceKeys.privateKeyPem,
    });
    headers = signed.headers;
  } else if (sample.token !== undefined) {
    headers.authorization = `Bearer ${sample.token}`;
  }
  return t.market.handle(new Request(url, { method: 'POST', headers, body: bytes as BodyInit }));
}

const withBody = MARKET_OPERATIONS.filter((name) => MARKET_ROUTES[name].method === 'POST');

describe('a body that is not UTF-8 is 400 invalid_json on every route that takes one', () => {
  it('has a sample for every route of the table that takes a body', () => {
    expect(withBody.length).toBeGreaterThan(0);
    expect(withBody.filter((name) => SAMPLES[name] === undefined)).toEqual([]);
  });

  for (const operation of withBody) {
    it(`${operation}: answers 400 invalid_json and changes nothing`, async () => {
      const t = await makeMarket();
      t.service.tokens.set(SERVICE_TOKEN, { active: true, scope: `openid ${READ_FILTERED_OFFERS_SCOPE}` });
      await insertOrder(t.store, PENDING, 'PENDING');
      await insertOrder(t.store, APPROVED, 'APPROVED');
      const sample = SAMPLES[operation]!;
      for (const [where, body] of variants(sample.body)) {
        for (const [what, bad] of Object.entries(BAD_SEQUENCES)) {
          const response = await send(t, operation, withBadBytes(body, bad));
          const problem = await response.json();
          expect({ where, what, status: response.status, code: problem.code }).toEqual({
            where,
            what,
            status: 400,
            code: 'invalid_json',
          });
        }
      }
      expect((await t.store.findOrderById(PENDING))?.status).toBe('PENDING');
      expect((await t.store.findOrderById(APPROVED))?.status).toBe('APPROVED');
      expect(
        t.service.calls.filter((c) => c.op !== 'getSigningPublicKey' && c.op !== 'introspectToken'),
      ).toEqual([]);
      expect(t.hooks.webhooks).toEqual([]);
      expect(await t.store.findOrderByReferenceId('ref-utf8')).toBeUndefined();
    });

    it(`${operation}: the same body with valid UTF-8 is not refused as invalid_json`, async () => {
      const t = await makeMarket();
      t.service.tokens.set(SERVICE_TOKEN, { active: true, scope: `openid ${READ_FILTERED_OFFERS_SCOPE}` });
      await insertOrder(t.store, PENDING, 'PENDING');
      await insertOrder(t.store, APPROVED, 'APPROVED');
      const sample = SAMPLES[operation]!;
      const [, body] = variants(sample.body)[0]!;
      const response = await send(t, operation, withBadBytes(body, [0xc3, 0xa9]));
      expect((await response.json()).code).not.toBe('invalid_json');
    });
  }
});

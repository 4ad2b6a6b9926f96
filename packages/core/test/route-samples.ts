/**
 * A valid request for every operation of the market's route table (a `Record` over the operations:
 * a new route does not compile here until it has one), and a way to send it, signed for the webhook.
 * Tests that must hold on every route iterate the table and send these.
 */
import { MARKET_ROUTES, type MarketOperation } from '../src/market/route-table.js';
import { READ_FILTERED_OFFERS_SCOPE } from '../src/service/routes.js';
import { signWebhook } from '../src/testing.js';
import { API_TOKEN, insertOrder, ORIGIN, type TestMarket, USER_TOKEN } from './market-support.js';

export const SERVICE_TOKEN = 'svc-token';
/** Seeded by `seedSampleState`: the webhook sample moves the first, the order actions use the second. */
export const PENDING_ORDER = 'svc_pending';
export const APPROVED_ORDER = 'svc_approved';

export interface RouteSample {
  path: string;
  token?: string;
  /** A valid body, for routes that take one. */
  body?: Record<string, unknown>;
}

export const ROUTE_SAMPLES: Record<MarketOperation, RouteSample> = {
  createOrder: {
    path: '/v1/orders',
    token: API_TOKEN,
    body: {
      reference_id: 'ref-sample',
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
          measment_unit: 'EACH',
        },
      ],
    },
  },
  getOrderStatus: { path: `/v1/orders/service/${APPROVED_ORDER}`, token: API_TOKEN },
  cancelOrder: { path: `/v1/orders/${APPROVED_ORDER}/cancel`, token: API_TOKEN, body: { reason: 'x' } },
  disburseOrder: { path: `/v1/orders/${APPROVED_ORDER}/disburse`, token: API_TOKEN, body: { note: 'x' } },
  pushClaims: { path: '/v1/push-claims', token: USER_TOKEN, body: { id: 'u1', credify_id: 'cr-1' } },
  filterOffers: { path: '/v1/offers/filter', token: SERVICE_TOKEN, body: { local_id: 'u1', offers: [] } },
  receiveWebhook: {
    path: '/v1/webhook',
    body: { type: 'BNPL_ORDER_STATUS_UPDATED', order_id: PENDING_ORDER, order_status: 'APPROVED' },
  },
  getDemoUser: { path: '/v1/demo-user' },
  bnplRedirect: { path: `/v1/bnpl/orders/${APPROVED_ORDER}/redirect` },
};

/** The orders and the service token the samples refer to. */
export async function seedSampleState(t: TestMarket): Promise<void> {
  t.service.tokens.set(SERVICE_TOKEN, { active: true, scope: `openid ${READ_FILTERED_OFFERS_SCOPE}` });
  await insertOrder(t.store, PENDING_ORDER, 'PENDING');
  await insertOrder(t.store, APPROVED_ORDER, 'APPROVED');
  for (const [id, orderStatus] of [
    [PENDING_ORDER, 'PENDING'],
    [APPROVED_ORDER, 'APPROVED'],
  ] as const) {
    t.service.orders.set(id, {
      id,
      referenceId: `ref-${id}`,
      totalAmount: { value: '300000', currency: 'VND' },
      orderLines: [],
      orderStatus,
    });
  }
}

/** Sends the operation's sample, with `body` in place of its JSON when given; signed for the webhook. */
export async function sendSample(
  t: TestMarket,
  operation: MarketOperation,
  body?: Uint8Array,
): Promise<Response> {
  const sample = ROUTE_SAMPLES[operation];
  const entry = MARKET_ROUTES[operation];
  const bytes =
    body ?? (sample.body === undefined ? undefined : new TextEncoder().encode(JSON.stringify(sample.body)));
  let headers: Record<string, string> = bytes === undefined ? {} : { 'content-type': 'application/json' };
  if (entry.auth === 'webhook-signature') {
    const signed = await signWebhook({
      url: t.market.webhookUrl,
      body: bytes ?? new Uint8Array(),
      signingKey: t.serviceKeys.privateKeyPem,
    });
    headers = signed.headers;
  } else if (sample.token !== undefined) {
    headers.authorization = `Bearer ${sample.token}`;
  }
  return t.market.handle(
    new Request(`${ORIGIN}${sample.path}`, {
      method: entry.method,
      headers,
      ...(bytes !== undefined && { body: bytes as BodyInit }),
    }),
  );
}

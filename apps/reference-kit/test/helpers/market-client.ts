/**
 * What the tests do over real HTTP, as a market's systems, a user's browser, the SDK and the
 * provider (the embedded sandbox's admin API) would.
 */
import { orderRequest, waitFor } from '../../src/testing/index.js';

export interface HttpAnswer {
  status: number;
  body: Record<string, unknown>;
  headers: Headers;
}

export async function http(
  url: string,
  init: { method?: string; json?: unknown; token?: string; headers?: Record<string, string> } = {},
): Promise<HttpAnswer> {
  const response = await fetch(url, {
    method: init.method ?? (init.json === undefined ? 'GET' : 'POST'),
    headers: {
      ...(init.json !== undefined && { 'content-type': 'application/json' }),
      ...(init.token && { authorization: `Bearer ${init.token}` }),
      ...init.headers,
    },
    body: init.json === undefined ? undefined : JSON.stringify(init.json),
  });
  const text = await response.text();
  return {
    status: response.status,
    body: text === '' ? {} : (JSON.parse(text) as Record<string, unknown>),
    headers: response.headers,
  };
}

export interface MarketClient {
  base: string;
  createOrder(referenceId?: string): Promise<string>;
  /** The status this server stored (changed only by webhooks and its own calls). */
  storedStatus(orderId: string): Promise<string | null>;
  waitForStatus(orderId: string, status: string): Promise<void>;
}

export function marketClient(base: string, token: string): MarketClient {
  const client: MarketClient = {
    base,
    async createOrder(referenceId) {
      const answer = await http(`${base}/v1/orders`, { json: orderRequest(referenceId), token });
      if (answer.status !== 201)
        throw new Error(`create order: ${answer.status} ${JSON.stringify(answer.body)}`);
      return String(answer.body.id);
    },
    async storedStatus(orderId) {
      // The market's own systems may ask without the signed link a person gets.
      const answer = await http(`${base}/bnpl/complete?order_id=${encodeURIComponent(orderId)}`, { token });
      // An unknown order is a 404 problem, whose `status` is the HTTP status.
      return answer.status === 200 ? ((answer.body.status as string | null) ?? null) : null;
    },
    async waitForStatus(orderId, status) {
      await waitFor(async () => (await client.storedStatus(orderId)) === status, {
        what: `order ${orderId} to be stored as ${status}`,
      });
    },
  };
  return client;
}

export interface DeliveryJson {
  url: string;
  status: string;
  payload: Record<string, unknown>;
  attempts: { response_status: number | null }[];
}
export interface DisbursementJson {
  order_id: string;
  source: string;
  idempotency_key: string | null;
}
export interface ClaimTokenJson {
  scope_name: string;
  scope_hash: string;
  token: string;
}
export interface OfferJson {
  code: string;
  evaluation_result: { rank: number };
}

/** The provider's buttons and the records of a sandbox served at `serviceUrl`. */
export function sandboxAdmin(serviceUrl: string) {
  const admin = `${serviceUrl}/sandbox`;
  return {
    async act(orderId: string, action: 'approve' | 'ready' | 'paid' | 'reject', body: unknown = {}) {
      const answer = await http(`${admin}/orders/${orderId}/${action}`, { json: body });
      if (answer.status !== 200)
        throw new Error(`${action}: ${answer.status} ${JSON.stringify(answer.body)}`);
      return answer.body;
    },
    async deliveries(orderId: string) {
      const answer = await http(`${admin}/webhooks/deliveries`);
      return (answer.body.deliveries as DeliveryJson[]).filter((d) => d.payload.order_id === orderId);
    },
    async disbursements(orderId: string) {
      const answer = await http(`${admin}/disbursements`);
      return (answer.body.disbursements as DisbursementJson[]).filter((d) => d.order_id === orderId);
    },
    async claims(credifyId: string) {
      const answer = await http(`${admin}/claims/${credifyId}`);
      return answer.body.claim_tokens as ClaimTokenJson[];
    },
    /** The SDK's availability check: access token from the API key, then the offers for a user. */
    async availability(apiKey: string, localId: string) {
      const token = await http(`${serviceUrl}/v1/token`, {
        method: 'POST',
        headers: { 'x-api-key': apiKey },
      });
      const accessToken = (token.body.data as { access_token: string }).access_token;
      const answer = await http(`${serviceUrl}/v1/claim-providers/offers`, {
        json: { local_id: localId, product_types: ['consumerBNPL'] },
        token: accessToken,
      });
      const data = answer.body.data as { credify_id: string; offers: OfferJson[] };
      return { status: answer.status, credifyId: data?.credify_id, offers: data?.offers ?? [] };
    },
  };
}

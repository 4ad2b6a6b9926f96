/**
 * `ContractSandbox` over the sandbox's HTTP surface: the admin API under `/sandbox/…` for the
 * provider's buttons and the records, the service API (WIRE §6) where the suite acts as the SDK
 * (availability). Works the same for a standalone sandbox and for one served through msw, because
 * msw intercepts `fetch` in-process.
 */
import { pollUntil, type SignedWebhook, signWebhook } from '@bnpl-kit/core/testing';
import type {
  AvailabilityAnswer,
  ClaimTokenView,
  ContractSandbox,
  DeliveryView,
  SandboxOrderView,
  ServiceCallView,
  SignWebhookInput,
} from './driver.js';

export interface HttpSandboxOptions {
  /** The sandbox base URL, which is also the market's `SERVICE_API_URL`. */
  url: string;
  organizationId: string;
  /** An API key of the organisation with `claim_provider` (for availability). */
  apiKey: string;
  /** The sandbox's webhook signing key (PKCS#8 PEM or base64url seed): checks sign their own deliveries. */
  signingKey: string | Uint8Array;
  /** When the sandbox guards its admin API. */
  adminToken?: string;
  fetch?: typeof fetch;
  /** How long to wait for a webhook delivery to be answered. Default 10 000. */
  deliveryTimeoutMs?: number;
}

type Json = Record<string, unknown>;

class SandboxRequestError extends Error {}

function orderView(json: Json): SandboxOrderView {
  const history = Array.isArray(json.history) ? (json.history as Json[]) : [];
  return {
    id: String(json.id),
    referenceId: String(json.reference_id),
    status: String(json.order_status),
    history: history.map((h) => String(h.status)),
  };
}

function deliveryView(json: Json): DeliveryView {
  const attempts = Array.isArray(json.attempts) ? (json.attempts as Json[]) : [];
  return {
    id: String(json.id),
    eventId: String(json.event_id),
    eventType: String(json.event_type),
    url: String(json.url),
    status: String(json.status),
    body: String(json.body),
    payload: (json.payload ?? {}) as Record<string, unknown>,
    attempts: attempts.map((a) => ({
      responseStatus: typeof a.response_status === 'number' ? a.response_status : null,
      responseBody: typeof a.response_body === 'string' ? a.response_body : null,
      outcome: typeof a.outcome === 'string' ? a.outcome : null,
    })),
  };
}

/** The market answered at least once (success or not); waiting longer would only see retries. */
function answered(delivery: DeliveryView): boolean {
  return delivery.attempts.some((a) => a.outcome !== null);
}

export function createHttpSandbox(options: HttpSandboxOptions): ContractSandbox {
  const base = options.url.replace(/\/+$/, '');
  const doFetch = options.fetch ?? ((input, init) => fetch(input, init));
  const timeoutMs = options.deliveryTimeoutMs ?? 10_000;
  const org = encodeURIComponent(options.organizationId);

  async function call(method: string, path: string, body?: unknown, headers: Record<string, string> = {}) {
    const response = await doFetch(`${base}${path}`, {
      method,
      headers: {
        accept: 'application/json',
        ...(body !== undefined && { 'content-type': 'application/json' }),
        ...(options.adminToken &&
          path.startsWith('/sandbox') && { authorization: `Bearer ${options.adminToken}` }),
        ...headers,
      },
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.timeout(timeoutMs),
    });
    const text = await response.text();
    let json: unknown;
    try {
      json = text === '' ? undefined : JSON.parse(text);
    } catch {
      json = undefined;
    }
    return { status: response.status, json: (json ?? {}) as Json, text };
  }

  async function admin(method: string, path: string, body?: unknown): Promise<Json> {
    const answer = await call(method, path, body);
    if (answer.status >= 300) {
      throw new SandboxRequestError(
        `Sandbox ${method} ${path} answered ${answer.status}: ${answer.text.slice(0, 300)}`,
      );
    }
    return answer.json;
  }

  /** Deliveries of this organisation only: one sandbox may serve several markets. */
  async function listDeliveries(filter: Record<string, string>): Promise<DeliveryView[]> {
    const query = new URLSearchParams({ ...filter, organization_id: options.organizationId });
    const json = await admin('GET', `/sandbox/webhooks/deliveries?${query}`);
    return (json.deliveries as Json[]).map(deliveryView);
  }

  async function accessToken(): Promise<string> {
    const answer = await call('POST', '/v1/token', undefined, { 'x-api-key': options.apiKey });
    const token = (answer.json.data as Json | undefined)?.access_token;
    if (answer.status !== 200 || typeof token !== 'string') {
      throw new SandboxRequestError(
        `The sandbox refused the API key (${answer.status}): ${answer.text.slice(0, 200)}`,
      );
    }
    return token;
  }

  async function availability(localId: string): Promise<AvailabilityAnswer> {
    const token = await accessToken();
    const answer = await call(
      'POST',
      '/v1/claim-providers/offers',
      { local_id: localId, product_types: ['consumerBNPL'] },
      { authorization: `Bearer ${token}` },
    );
    const data = (answer.json.data ?? {}) as Json;
    const errors = answer.json.errors as Json[] | undefined;
    return {
      status: answer.status,
      credifyId: typeof data.credify_id === 'string' ? data.credify_id : undefined,
      offers: Array.isArray(data.offers) ? (data.offers as Record<string, unknown>[]) : [],
      error: errors?.map((e) => String(e.message)).join('; '),
    };
  }

  async function serviceCalls(sinceId = 0): Promise<ServiceCallView[]> {
    const json = await admin('GET', '/sandbox/calls');
    const text = (v: unknown) => (typeof v === 'string' ? v : undefined);
    return (json.calls as Json[])
      .filter((c) => c.kind === 'service' && Number(c.id) > sinceId)
      .map((c) => ({
        id: Number(c.id),
        operation: String(c.operation),
        method: String(c.method),
        path: String(c.path),
        status: Number(c.status),
        idempotencyKey: text(c.idempotency_key),
        body: text(c.body),
        fault: text(c.fault),
        responseBody: text(c.response_body),
      }));
  }

  return {
    serviceUrl: base,
    organizationId: options.organizationId,

    signWebhook(input: SignWebhookInput): Promise<SignedWebhook> {
      return signWebhook({
        url: input.url,
        body: input.body,
        signingKey: input.signingKey ?? options.signingKey,
        ...(input.eventId !== undefined && { eventId: input.eventId }),
        ...(input.timestamp !== undefined && { timestamp: input.timestamp }),
      });
    },

    async order(id) {
      const answer = await call('GET', `/sandbox/orders/${encodeURIComponent(id)}`);
      if (answer.status === 404) return undefined;
      if (answer.status !== 200) throw new SandboxRequestError(`Sandbox order ${id}: ${answer.status}`);
      return orderView(answer.json);
    },
    async ordersByReference(referenceId) {
      const json = await admin('GET', '/sandbox/orders');
      return (json.orders as Json[]).map(orderView).filter((o) => o.referenceId === referenceId);
    },
    async approve(orderId) {
      await admin('POST', `/sandbox/orders/${encodeURIComponent(orderId)}/approve`, {});
    },
    async ready(orderId) {
      await admin('POST', `/sandbox/orders/${encodeURIComponent(orderId)}/ready`, { via: 'status' });
    },
    async paid(orderId) {
      await admin('POST', `/sandbox/orders/${encodeURIComponent(orderId)}/paid`, {});
    },
    async disbursements(orderId) {
      const json = await admin('GET', '/sandbox/disbursements');
      return (json.disbursements as Json[]).filter((d) => d.order_id === orderId).length;
    },

    async deliveries(filter) {
      const all = await listDeliveries({
        ...(filter.eventId && { event_id: filter.eventId }),
        ...(filter.eventType && { event_type: filter.eventType }),
      });
      return all.filter((d) => filter.orderId === undefined || d.payload.order_id === filter.orderId);
    },
    awaitStatusDelivery(orderId, status) {
      return pollUntil(
        async () => {
          const found = await listDeliveries({ event_type: 'BNPL_ORDER_STATUS_UPDATED' });
          return found.find(
            (d) => d.payload.order_id === orderId && d.payload.order_status === status && answered(d),
          );
        },
        {
          timeoutMs,
          what: `the sandbox's ${status} webhook for order ${orderId} to be answered by the market`,
        },
      );
    },
    async replay(deliveryId) {
      const copy = deliveryView(
        await admin('POST', `/sandbox/webhooks/deliveries/${encodeURIComponent(deliveryId)}/replay`, {}),
      );
      return pollUntil(
        async () => {
          const current = deliveryView(
            await admin('GET', `/sandbox/webhooks/deliveries/${encodeURIComponent(copy.id)}`),
          );
          return answered(current) ? current : undefined;
        },
        { timeoutMs, what: `the replay of delivery ${deliveryId} to be answered by the market` },
      );
    },

    availability,
    async serviceUserId(localId) {
      const answer = await availability(localId);
      if (answer.credifyId) return answer.credifyId;
      // The availability answer may have failed (e.g. the market's offer filter did); the user exists anyway.
      const json = await admin('GET', '/sandbox/users');
      const user = (json.users as Json[]).find(
        (u) => u.local_id === localId && u.organization_id === options.organizationId,
      );
      if (typeof user?.credify_id !== 'string') {
        throw new SandboxRequestError(
          `The sandbox has no service user for ${localId}: ${answer.error ?? answer.status}`,
        );
      }
      return user.credify_id;
    },
    async setApprovedOffers(offers) {
      const before = await admin('GET', `/sandbox/organizations/${org}`);
      await admin('PATCH', `/sandbox/organizations/${org}`, { approved_offers: offers });
      return (before.approved_offers ?? []) as Record<string, unknown>[];
    },
    apiAccessToken: accessToken,
    async claimTokens(credifyId) {
      const json = await admin('GET', `/sandbox/claims/${encodeURIComponent(credifyId)}`);
      return (json.claim_tokens as Json[]).map(
        (t): ClaimTokenView => ({
          scopeName: String(t.scope_name),
          scopeHash: String(t.scope_hash),
          token: String(t.token),
        }),
      );
    },
    async reject(orderId) {
      await admin('POST', `/sandbox/orders/${encodeURIComponent(orderId)}/reject`, {});
    },
    async offerFilterToken() {
      const json = await admin('POST', `/sandbox/organizations/${org}/offer-filter-token`, {});
      return String(json.access_token);
    },
    async injectFault(fault) {
      await admin(
        'POST',
        '/sandbox/faults',
        'operation' in fault ? { target: 'route', ...fault } : { target: 'webhook', ...fault },
      );
    },
    async clearFaults() {
      await call('DELETE', '/sandbox/faults');
    },
    serviceCalls,
    async lastCallId() {
      const json = await admin('GET', '/sandbox/calls');
      const calls = json.calls as Json[];
      return calls.length === 0 ? 0 : Number(calls.at(-1)!.id);
    },
    async refusedCalls(sinceId) {
      return (await serviceCalls(sinceId)).filter((c) => c.status >= 400 && c.fault === undefined);
    },
    async claimPublicKey() {
      const json = await admin('GET', `/sandbox/organizations/${org}`);
      return typeof json.public_key === 'string' ? json.public_key : undefined;
    },
  };
}

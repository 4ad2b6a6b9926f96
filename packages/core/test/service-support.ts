/**
 * A scripted stand-in for the service: each call is answered by the first matching rule, and every
 * request is recorded. Used by the client's unit tests; the client ↔ sandbox tests live in
 * packages/sandbox/test.
 */

import type { OrderLine } from '../src/index.js';
import { orderLineSchema } from '../src/models/order-line.js';
import { orderFixture, wireOrderLine as wireLine, wireOrder } from '../src/testing.js';
import type { CreateServiceOrderInput } from '../src/wire.js';

export interface SeenRequest {
  method: string;
  url: string;
  path: string;
  headers: Headers;
  body: string | undefined;
}

export type Answer = (request: SeenRequest, signal: AbortSignal | undefined) => Response | Promise<Response>;

export function envelope(data: unknown, status = 200): Response {
  return new Response(JSON.stringify({ success: true, data }), {
    status,
    headers: { 'content-type': 'application/json' },
  });
}

export function failure(status: number, code = 'ERR', message = 'failed'): Response {
  return new Response(JSON.stringify({ success: false, errors: [{ code, message }] }), {
    status,
    headers: { 'content-type': 'application/json' },
  });
}

export function tokenAnswer(token = 'tok-1', expiresIn = 3600): Response {
  return envelope({ access_token: token, expires_in: expiresIn });
}

/** `tokenAnswer()`'s body, for a real listening stand-in. */
export const TOKEN_BODY = JSON.stringify({
  success: true,
  data: { access_token: 'tok-1', expires_in: 3600 },
});

/** Never answers until the request is aborted (the client's timeout). */
export const never: Answer = (_request, signal) =>
  new Promise((_, reject) => {
    signal?.addEventListener('abort', () => reject(signal.reason), { once: true });
  });

export function scriptedFetch(routes: Record<string, Answer | Answer[]>) {
  const seen: SeenRequest[] = [];
  const counters = new Map<string, number>();
  const fetchImpl = async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    const url = new URL(String(input));
    const request: SeenRequest = {
      method: init?.method ?? 'GET',
      url: url.toString(),
      path: url.pathname,
      headers: new Headers(init?.headers),
      body: typeof init?.body === 'string' ? init.body : undefined,
    };
    seen.push(request);
    const key = `${request.method} ${request.path}`;
    const rule = routes[key];
    if (!rule) return failure(404, 'NOT_FOUND', `unscripted ${key}`);
    const index = counters.get(key) ?? 0;
    counters.set(key, index + 1);
    const answer = Array.isArray(rule) ? (rule[Math.min(index, rule.length - 1)] as Answer) : rule;
    return answer(request, init?.signal ?? undefined);
  };
  return {
    fetch: fetchImpl as typeof fetch,
    seen,
    count: (key: string) => seen.filter((r) => `${r.method} ${r.path}` === key).length,
  };
}

export const ORDERS = '/v1/integration/bnpl-consumers/orders';

// The model line is decoded from the same wire fixture the model tests use, so the two agree.
export const line: OrderLine = orderLineSchema.parse(wireLine());

export const orderInput: CreateServiceOrderInput = orderFixture({ orderLines: [line] });

export function wireServiceOrder(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return { id: 'ord-1', ...wireOrder(), order_status: 'PENDING', ...overrides };
}

/** A service that hands out a token and creates orders; `more` adds or replaces routes. */
export function orderService(more: Record<string, Answer | Answer[]> = {}) {
  return scriptedFetch({
    'POST /v1/token': () => tokenAnswer(),
    [`POST ${ORDERS}`]: () => envelope(wireServiceOrder()),
    ...more,
  });
}

/** Shared test helpers: a fake market that records webhooks, a client wired to a sandbox, orders. */

import {
  type ClaimObject,
  createServiceClient,
  type ServiceClient,
  type ServiceClientOptions,
  verifyWebhook,
} from '@bnpl-kit/core';
import { orderFixture } from '@bnpl-kit/core/testing';
import { buildClaimTokens, type CreateServiceOrderInput } from '@bnpl-kit/core/wire';
import { onTestFinished } from 'vitest';
import {
  createManualClock,
  createSandbox,
  createSandboxFetch,
  type Sandbox,
  type SandboxOptions,
} from '../src/index.js';

export const BASE_URL = 'https://sandbox.bnpl.test';
export const WEBHOOK_URL = 'https://market.test/v1/webhook';
export const FILTER_URL = 'https://market.test/v1/offers/filter';
export const API_KEY = 'sk_test_market_key';

export interface ReceivedWebhook {
  url: string;
  headers: Record<string, string>;
  body: string;
}

type MarketAnswer = (
  request: ReceivedWebhook,
  signal: AbortSignal | undefined,
) => Response | Promise<Response>;

/**
 * The market side of the sandbox's outbound calls. Webhooks are recorded and answered 200 unless a
 * test scripts otherwise; other URLs go to `routes`.
 */
export function fakeMarket(routes: Record<string, MarketAnswer> = {}) {
  const received: ReceivedWebhook[] = [];
  let webhookAnswers: MarketAnswer[] = [];
  const fetchImpl = async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    const url = String(input);
    const request: ReceivedWebhook = {
      url,
      headers: Object.fromEntries(new Headers(init?.headers).entries()),
      body: typeof init?.body === 'string' ? init.body : '',
    };
    const route = routes[url];
    if (route) return route(request, init?.signal ?? undefined);
    received.push(request);
    const answer = webhookAnswers.shift();
    return answer
      ? answer(request, init?.signal ?? undefined)
      : new Response('{"received":true}', { status: 200 });
  };
  return {
    fetch: fetchImpl as typeof fetch,
    received,
    /** The next webhook requests get these answers, in order; then 200 again. */
    answerNext(...answers: MarketAnswer[]) {
      webhookAnswers = answers;
    },
    payloads: () => received.map((r) => JSON.parse(r.body) as Record<string, unknown>),
  };
}

export const status =
  (code: number): MarketAnswer =>
  () =>
    new Response('nope', { status: code });

/** Never answers until aborted. */
export const hang: MarketAnswer = (_, signal) =>
  new Promise((_, reject) => signal?.addEventListener('abort', () => reject(signal.reason), { once: true }));

export async function verify(sandbox: Sandbox, webhook: ReceivedWebhook, now = sandbox.clock.now()) {
  return verifyWebhook(
    { url: webhook.url, headers: webhook.headers, body: webhook.body },
    { keys: await sandbox.publicKey(), now },
  );
}

export function clientFor(baseUrl: string, options: Partial<ServiceClientOptions> = {}) {
  return createServiceClient({ baseUrl, apiKey: API_KEY, sleep: async () => {}, ...options });
}

/** A client that calls the sandbox's handler directly: no network, no msw. */
export function directClient(sandbox: Sandbox, options: Partial<ServiceClientOptions> = {}) {
  return clientFor(BASE_URL, {
    fetch: createSandboxFetch(sandbox),
    now: () => sandbox.clock.now(),
    ...options,
  });
}

/** Core's one order fixture, under another reference when a test needs several orders. */
export function orderInput(referenceId = 'order-1'): CreateServiceOrderInput {
  return orderFixture({ referenceId });
}

export const marketOrg = (overrides: Record<string, unknown> = {}) => ({
  id: 'org-market',
  apiKeys: [API_KEY],
  webhookUrls: [WEBHOOK_URL],
  ...overrides,
});

export async function adminJson(
  sandbox: Sandbox,
  method: string,
  path: string,
  body?: unknown,
  headers = {},
) {
  const response = await sandbox.handle(
    new Request(`${BASE_URL}${path}`, {
      method,
      headers: { 'content-type': 'application/json', ...headers },
      ...(body !== undefined && { body: JSON.stringify(body) }),
    }),
  );
  const text = await response.text();
  // biome-ignore lint/suspicious/noExplicitAny: assertions read arbitrary admin JSON
  const json: any = text ? JSON.parse(text) : undefined;
  return { status: response.status, headers: response.headers, json };
}

/**
 * A sandbox serving the market organisation (`orgOverrides` change it) on a manual clock, its
 * webhooks and filter calls going to a fake market (`routes`); closed when the test finishes.
 */
export function startSandbox(
  options: SandboxOptions = {},
  orgOverrides: Record<string, unknown> = {},
  routes: Parameters<typeof fakeMarket>[0] = {},
) {
  const market = fakeMarket(routes);
  const clock = createManualClock();
  const sandbox = createSandbox({
    organizations: [marketOrg(orgOverrides)],
    fetch: market.fetch,
    clock,
    ...options,
  });
  onTestFinished(() => sandbox.close());
  return { sandbox, market, clock, client: directClient(sandbox) };
}

/** Builds the market's claim tokens for `claims` and pushes them all, as the kit does after approval. */
export async function pushClaims(
  client: ServiceClient,
  input: { claims: ClaimObject; credifyId: string; signingKey: string | Uint8Array },
) {
  const tokens = await buildClaimTokens({ ...input, organizationId: 'org-market' });
  await client.pushClaimTokens(
    input.credifyId,
    tokens.map((t) => t.token),
  );
  return tokens;
}

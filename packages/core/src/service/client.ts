/**
 * The typed client for the BNPL service API (WIRE §6): the operations market code calls, each one
 * line over the shared route table (routes.ts). Below it, once for every operation: the bearer
 * token and its renewal (bearer.ts), encoding, retries and idempotency headers (sender.ts), and
 * the HTTP exchange with its timeout and answer validation (transport.ts), so market code only
 * sees models and `KitError`s.
 */

import { DEFAULT_SERVICE_TIMEOUT_MS } from '../models/config.js';
import { isSecret, type Secret } from '../models/secret.js';
import { base64UrlEncode, utf8 } from '../util/base64url.js';
import { sha256 } from '../util/bytes.js';
import { createBearerCaller } from './bearer.js';
import { fetchCall, type HttpCall } from './http-call.js';
import { idempotencyKeys } from './idempotency.js';
import { nodeHttpCall } from './node-http-call.js';
import { defaultSleep } from './retry.js';
import { createSender } from './sender.js';
import { traceCalls } from './traced.js';
import type { ServiceClient } from './types.js';

export interface ServiceClientOptions {
  /** The service base URL (`SERVICE_API_URL`), e.g. `https://sandbox.example/api`; paths are appended. */
  baseUrl: string;
  /** `APP_API_KEY`, with the `claim_provider` permission. */
  apiKey: string | Secret;
  /**
   * How requests reach the service. Unset: on Node, Node's own http client (several times less
   * CPU per call than fetch); elsewhere, and on Node once something has replaced the global fetch
   * (msw, a test's stub), the global fetch. Set it to route calls through a fetch of your own,
   * e.g. `globalThis.fetch` after undici's `setGlobalDispatcher` (a proxy).
   */
  fetch?: typeof fetch;
  /** Per attempt, covering the whole answer. Default 8000. */
  timeoutMs?: number;
  /**
   * Extra attempts: of a read on no answer, a timeout or a 5xx; of a mutating call (create, cancel,
   * disburse, push claims, each with its Idempotency-Key) only when its connection failed without
   * an answer. Default 2.
   */
  retries?: number;
  /** Backoff ceiling of the first retry, doubled each time. Default 200. */
  retryBaseDelayMs?: number;
  /** Default 2000. */
  retryMaxDelayMs?: number;
  /** Epoch milliseconds; drives token expiry. */
  now?: () => number;
  /** In [0, 1); drives retry jitter. */
  random?: () => number;
  /** How to wait between retries; tests inject one that does not wait. */
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
}

/** The global fetch as this module found it: the runtime's own unless something replaced it first. */
const RUNTIME_FETCH = globalThis.fetch;

/**
 * How each attempt travels when the caller gave no fetch: Node's http client on Node, else the
 * runtime's fetch, which honours its signal (no race around it). A global fetch replaced since
 * this module loaded (a test double) is used instead, and raced, as it may ignore the signal.
 */
function defaultCall(): () => HttpCall {
  const runtime = nodeHttpCall() ?? fetchCall((input, init) => RUNTIME_FETCH(input, init), true);
  return () => (globalThis.fetch === RUNTIME_FETCH ? runtime : fetchCall(globalThis.fetch, false));
}

/** Every attempt through the fetch the caller gave, raced against the signal it may ignore. */
function givenFetchCall(fetchImpl: typeof fetch): () => HttpCall {
  const call = fetchCall(fetchImpl, false);
  return () => call;
}

/** Pushing the same tokens again is the same request; new tokens are a new one. */
async function pushClaimsKey(credifyId: string, tokens: readonly string[]): Promise<string> {
  const digest = base64UrlEncode(await sha256(utf8(tokens.join('\n'))));
  return idempotencyKeys.pushClaims(credifyId, digest.slice(0, 22));
}

export function createServiceClient(options: ServiceClientOptions): ServiceClient {
  const send = createSender({
    baseUrl: options.baseUrl.replace(/\/+$/, ''),
    call: options.fetch === undefined ? defaultCall() : givenFetchCall(options.fetch),
    timeoutMs: options.timeoutMs ?? DEFAULT_SERVICE_TIMEOUT_MS,
    policy: {
      retries: options.retries ?? 2,
      baseDelayMs: options.retryBaseDelayMs ?? 200,
      maxDelayMs: options.retryMaxDelayMs ?? 2000,
      random: options.random ?? Math.random,
      sleep: options.sleep ?? defaultSleep,
    },
  });
  const apiKey = isSecret(options.apiKey) ? options.apiKey.reveal() : options.apiKey;
  const call = traceCalls(createBearerCaller(send, apiKey, options.now ?? Date.now));

  return {
    async createOrder(order, options) {
      return call('createOrder', {
        body: order,
        idempotencyKey: idempotencyKeys.createOrder(order.referenceId),
        ...(options && { options }),
      });
    },
    async getOrder(id, options) {
      return call('getOrder', { params: { id }, ...(options && { options }) });
    },
    async cancelOrder(id, options) {
      return call('revertOrder', {
        params: { id },
        body: {},
        idempotencyKey: idempotencyKeys.revertOrder(id),
        ...(options && { options }),
      });
    },
    async disburseOrder(id, input, options) {
      return call('disburseOrder', {
        params: { id },
        body: input,
        idempotencyKey: idempotencyKeys.disburseOrder(id),
        ...(options && { options }),
      });
    },
    async pushClaimTokens(credifyId, claimTokens, options) {
      await call('pushClaimTokens', {
        params: { credify_id: credifyId },
        body: { claimTokens },
        idempotencyKey: await pushClaimsKey(credifyId, claimTokens),
        ...(options && { options }),
      });
    },
    async getSigningPublicKey(entityId, options) {
      const data = await call('getPublicKey', {
        query: { entity_id: entityId },
        ...(options && { options }),
      });
      return data.signing;
    },
    async introspectToken(token, scope, options) {
      return call('introspectToken', {
        body: { token, scope },
        ...(options && { options }),
      });
    },
    async checkAvailability(input, options) {
      const data = await call('checkAvailability', { body: input, ...(options && { options }) });
      return { offers: data.offers, credifyId: data.credifyId };
    },
  };
}

/**
 * The typed client for the BNPL service API (WIRE §6). Every operation is driven by the shared route
 * table (routes.ts): the request is encoded and checked with the route's codec, the answer's `data`
 * is validated and decoded with it. Token handling, timeouts, retries and idempotency keys live here
 * once, so market code only sees models and `KitError`s.
 */

import type { z } from 'zod';
import { KitError } from '../errors.js';
import { isSecret, type Secret } from '../models/secret.js';
import { issuesOf } from '../models/wire.js';
import { base64UrlEncode, utf8 } from '../util/base64url.js';
import { sha256 } from '../util/bytes.js';
import { AccessTokenCache } from './access-token-cache.js';
import { headerSafe, idempotencyKeys } from './idempotency.js';
import { isPrevalidated } from './prevalidated.js';
import { defaultSleep, type RetryPolicy, withRetries } from './retry.js';
import {
  API_KEY_HEADER,
  buildServicePath,
  IDEMPOTENCY_KEY_HEADER,
  type RouteDefinition,
  SERVICE_ROUTES,
  type ServiceOperation,
} from './routes.js';
import { exchange, UnauthorizedAnswer } from './transport.js';
import type { CallOptions, ServiceClient } from './types.js';

/** What a route's response codec decodes the envelope's `data` into. */
type ResponseOf<Op extends ServiceOperation> = z.output<(typeof SERVICE_ROUTES)[Op]['response']['schema']>;

export interface ServiceClientOptions {
  /** The service base URL (`SERVICE_API_URL`), e.g. `https://sandbox.example/api`; paths are appended. */
  baseUrl: string;
  /** `APP_API_KEY`, with the `claim_provider` permission. */
  apiKey: string | Secret;
  fetch?: typeof fetch;
  /** Per attempt, covering the whole answer. Default 8000. */
  timeoutMs?: number;
  /** Extra attempts of idempotent operations. Default 2. */
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

const DEFAULT_SERVICE_TIMEOUT_MS = 8000;

const HEADER_VALUE = /^[\x21-\x7E]+$/;

interface CallInput {
  params?: Record<string, string>;
  query?: Record<string, string>;
  /** The request model, encoded with the route's codec. */
  body?: unknown;
  idempotencyKey?: string;
  options?: CallOptions;
}

/** Pushing the same tokens again is the same request; new tokens are a new one. */
async function pushClaimsKey(credifyId: string, tokens: readonly string[]): Promise<string> {
  const digest = base64UrlEncode(await sha256(utf8(tokens.join('\n'))));
  return idempotencyKeys.pushClaims(credifyId, digest.slice(0, 22));
}

export function createServiceClient(options: ServiceClientOptions): ServiceClient {
  const baseUrl = options.baseUrl.replace(/\/+$/, '');
  const apiKey = isSecret(options.apiKey) ? options.apiKey.reveal() : options.apiKey;
  const doFetch = options.fetch ?? ((input, init) => fetch(input, init));
  const timeoutMs = options.timeoutMs ?? DEFAULT_SERVICE_TIMEOUT_MS;
  const now = options.now ?? Date.now;
  const policy: RetryPolicy = {
    retries: options.retries ?? 2,
    baseDelayMs: options.retryBaseDelayMs ?? 200,
    maxDelayMs: options.retryMaxDelayMs ?? 2000,
    random: options.random ?? Math.random,
    sleep: options.sleep ?? defaultSleep,
  };

  function encodeBody(
    operation: ServiceOperation,
    route: RouteDefinition,
    body: unknown,
  ): string | undefined {
    if (!route.request) return undefined;
    const wire = route.request.encode(body ?? {});
    if (isPrevalidated(body)) return JSON.stringify(wire);
    // Checked before sending: a bad request is our caller's 400, not the service's.
    const checked = route.request.schema.safeParse(wire);
    if (!checked.success) {
      const errors = issuesOf(checked.error);
      throw new KitError(
        'validation_failed',
        `Invalid ${operation} request: ${errors[0]?.path}: ${errors[0]?.message}`,
        {
          errors,
        },
      );
    }
    return JSON.stringify(wire);
  }

  function urlFor(route: RouteDefinition, input: CallInput): string {
    const query = input.query ? `?${new URLSearchParams(input.query).toString()}` : '';
    return `${baseUrl}${buildServicePath(route.path, input.params ?? {})}${query}`;
  }

  async function send<Op extends ServiceOperation>(
    operation: Op,
    input: CallInput,
    authorization: Record<string, string>,
  ): Promise<ResponseOf<Op>> {
    const route: RouteDefinition = SERVICE_ROUTES[operation];
    const body = encodeBody(operation, route, input.body);
    const headers: Record<string, string> = { Accept: 'application/json', ...authorization };
    if (body !== undefined) headers['Content-Type'] = 'application/json';
    const key = input.options?.idempotencyKey ?? input.idempotencyKey;
    // A caller's own key with characters a header cannot carry would fail inside fetch (a
    // misleading "service unreachable"); encode it the way the derived keys are.
    if (!route.idempotent && key !== undefined) {
      headers[IDEMPOTENCY_KEY_HEADER] = HEADER_VALUE.test(key) ? key : headerSafe(key);
    }
    // `exchange` validated `data` with this route's response codec, so it is that codec's output.
    return withRetries(policy, route.idempotent, input.options?.signal, () =>
      exchange({
        operation,
        route,
        url: urlFor(route, input),
        headers,
        body,
        timeoutMs,
        signal: input.options?.signal,
        fetch: doFetch,
      }),
    ) as Promise<ResponseOf<Op>>;
  }

  const tokens = new AccessTokenCache(async () => {
    try {
      const data = await send('token', {}, { [API_KEY_HEADER]: apiKey });
      return { value: data.accessToken, expiresInSeconds: data.expiresIn };
    } catch (error) {
      throw error instanceof UnauthorizedAnswer ? error.kitError : error;
    }
  }, now);

  /** A bearer call; a 401 renews the token once (another caller may already have). */
  async function call<Op extends ServiceOperation>(operation: Op, input: CallInput): Promise<ResponseOf<Op>> {
    for (let attempt = 0; ; attempt++) {
      const token = await tokens.get();
      try {
        return await send(operation, input, { Authorization: `Bearer ${token}` });
      } catch (error) {
        if (!(error instanceof UnauthorizedAnswer)) throw error;
        if (attempt > 0) throw error.kitError;
        tokens.invalidate(token);
      }
    }
  }

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

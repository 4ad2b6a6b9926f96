/**
 * One call of a service operation, whoever authorises it: the request body encoded (and checked)
 * with the route's codec, the URL built from the route table, the headers (idempotency key made
 * header-safe), and the exchange retried by the policy (retry.ts says which failures of which calls). What
 * comes back is the route's response codec's output.
 */
import type * as z from 'zod';
import { KitError } from '../errors.js';
import { issuesOf } from '../models/wire.js';
import type { CheckedRequest } from './echoed-answer.js';
import type { HttpCall } from './http-call.js';
import { headerSafe } from './idempotency.js';
import { isPrevalidated, prevalidatedWire } from './prevalidated.js';
import { type RetryPolicy, retryableFor, withRetries } from './retry.js';
import {
  buildServicePath,
  IDEMPOTENCY_KEY_HEADER,
  type RouteDefinition,
  SERVICE_ROUTES,
  type ServiceOperation,
} from './routes.js';
import { exchange } from './transport.js';
import type { CallOptions } from './types.js';

/** What a route's response codec decodes the envelope's `data` into. */
export type ResponseOf<Op extends ServiceOperation> = z.output<
  (typeof SERVICE_ROUTES)[Op]['response']['schema']
>;

export interface CallInput {
  params?: Record<string, string>;
  query?: Record<string, string>;
  /** The request model, encoded with the route's codec. */
  body?: unknown;
  idempotencyKey?: string;
  options?: CallOptions;
}

export interface SenderOptions {
  /** Without a trailing slash. */
  baseUrl: string;
  /** How this attempt travels (http-call.ts); asked per attempt, as the global fetch may change. */
  call: () => HttpCall;
  timeoutMs: number;
  policy: RetryPolicy;
}

export type Send = <Op extends ServiceOperation>(
  operation: Op,
  input: CallInput,
  authorization: Record<string, string>,
) => Promise<ResponseOf<Op>>;

const HEADER_VALUE = /^[\x21-\x7E]+$/;

interface EncodedBody {
  text: string;
  /** Set when the body was checked before it reached the client (prevalidated.ts). */
  checked: CheckedRequest | undefined;
}

function encodeBody(
  operation: ServiceOperation,
  route: RouteDefinition,
  body: unknown,
): EncodedBody | undefined {
  if (!route.request) return undefined;
  if (isPrevalidated(body)) {
    // Encoded once: by the caller when it handed the wire over, otherwise here.
    const wire = prevalidatedWire(body) ?? route.request.encode(body);
    return { text: JSON.stringify(wire), checked: { wire, model: body as Record<string, unknown> } };
  }
  const wire = route.request.encode(body ?? {});
  // Checked before sending: a bad request is our caller's 400, not the service's.
  const checked = route.request.schema.safeParse(wire);
  if (!checked.success) {
    const errors = issuesOf(checked.error);
    throw new KitError(
      'validation_failed',
      `Invalid ${operation} request: ${errors[0]?.path}: ${errors[0]?.message}`,
      { errors },
    );
  }
  return { text: JSON.stringify(wire), checked: undefined };
}

export function createSender(options: SenderOptions): Send {
  const { baseUrl, policy, timeoutMs } = options;

  function urlFor(route: RouteDefinition, input: CallInput): string {
    const query = input.query ? `?${new URLSearchParams(input.query).toString()}` : '';
    return `${baseUrl}${buildServicePath(route.path, input.params ?? {})}${query}`;
  }

  return function send<Op extends ServiceOperation>(
    operation: Op,
    input: CallInput,
    authorization: Record<string, string>,
  ): Promise<ResponseOf<Op>> {
    const route: RouteDefinition = SERVICE_ROUTES[operation];
    let body: EncodedBody | undefined;
    try {
      body = encodeBody(operation, route, input.body);
    } catch (error) {
      return Promise.reject(error);
    }
    const headers: Record<string, string> = { Accept: 'application/json', ...authorization };
    if (body !== undefined) headers['Content-Type'] = 'application/json';
    const key = input.options?.idempotencyKey ?? input.idempotencyKey;
    // A caller's own key with characters a header cannot carry would fail inside fetch (a
    // misleading "service unreachable"); encode it the way the derived keys are.
    const keyed = !route.idempotent && key !== undefined;
    if (keyed) headers[IDEMPOTENCY_KEY_HEADER] = HEADER_VALUE.test(key) ? key : headerSafe(key);
    // `exchange` validated `data` with this route's response codec, so it is that codec's output.
    return withRetries(
      policy,
      retryableFor({ idempotent: route.idempotent, keyed }),
      input.options?.signal,
      () =>
        exchange({
          operation,
          route,
          url: urlFor(route, input),
          headers,
          body: body?.text,
          sent: body?.checked,
          timeoutMs,
          signal: input.options?.signal,
          call: options.call(),
        }),
    ) as Promise<ResponseOf<Op>>;
  };
}

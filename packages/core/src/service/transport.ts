/**
 * One HTTP exchange with the service: send, wait at most `timeoutMs` for the whole answer (headers
 * and body), unwrap the envelope, validate `data` with the route's schema. Every failure leaves as a
 * `KitError` (service/errors.ts), so market code never sees a raw `TypeError: fetch failed` or a zod
 * issue about a field it never sent.
 */
import { KitError } from '../errors.js';
import { issuesOf } from '../models/wire.js';
import { type CheckedRequest, parseAnswerData } from './echoed-answer.js';
import { upstreamError } from './errors.js';
import type { HttpCall } from './http-call.js';
import { envelopeSchema, type RouteDefinition, type ServiceOperation } from './routes.js';

export interface Exchange {
  operation: ServiceOperation;
  route: RouteDefinition;
  url: string;
  headers: Record<string, string>;
  body: string | undefined;
  /** The body as checked before sending, when it was (prevalidated.ts): what the answer may echo. */
  sent?: CheckedRequest | undefined;
  timeoutMs: number;
  signal: AbortSignal | undefined;
  /** How the request travels (http-call.ts). */
  call: HttpCall;
}

/** Thrown by `exchange` for a 401 so the caller can refresh the token once before giving up. */
export class UnauthorizedAnswer extends Error {
  constructor(readonly kitError: KitError) {
    super(kitError.message);
    this.name = 'UnauthorizedAnswer';
  }
}

class TimeoutSignal extends Error {}

export async function exchange(ex: Exchange): Promise<unknown> {
  const controller = new AbortController();
  // Built only when the timer fires: an Error per call captures a stack trace nobody reads.
  const timer = setTimeout(() => controller.abort(new TimeoutSignal('timeout')), ex.timeoutMs);
  const onCallerAbort = () => controller.abort(ex.signal?.reason);
  if (ex.signal?.aborted) onCallerAbort();
  ex.signal?.addEventListener('abort', onCallerAbort, { once: true });
  let status: number;
  let text: string;
  try {
    ({ status, text } = await ex.call({
      method: ex.route.method,
      url: ex.url,
      headers: ex.headers,
      body: ex.body,
      signal: controller.signal,
    }));
  } catch (error) {
    if (controller.signal.reason instanceof TimeoutSignal) {
      throw new KitError(
        'upstream_timeout',
        `The BNPL service did not answer ${ex.operation} within ${ex.timeoutMs} ms`,
        { extensions: { operation: ex.operation }, cause: error },
      );
    }
    // The caller gave up: theirs to handle, not an upstream failure.
    if (ex.signal?.aborted) throw ex.signal.reason;
    // An in-process service (an embedded sandbox) fails with the kit's own errors when the failure
    // is this process's, e.g. `store_unavailable` for the database it shares with the market:
    // that is not the service being unreachable, and the market must say which it is.
    if (error instanceof KitError) throw error;
    throw new KitError('upstream_unavailable', `Could not reach the BNPL service for ${ex.operation}`, {
      extensions: { operation: ex.operation },
      cause: error,
    });
  } finally {
    clearTimeout(timer);
    ex.signal?.removeEventListener('abort', onCallerAbort);
  }
  return readAnswer(ex, status, text);
}

function malformed(ex: Exchange, status: number, why: string, cause?: unknown): KitError {
  return new KitError('upstream_rejected', `The BNPL service answered ${ex.operation} with ${why}`, {
    extensions: { operation: ex.operation, upstream_status: status },
    cause,
  });
}

function readAnswer(ex: Exchange, status: number, text: string): unknown {
  let json: unknown;
  let parsed = false;
  try {
    json = JSON.parse(text);
    parsed = true;
  } catch {
    // An error page from a proxy is still an error of its status; only a 2xx must be JSON.
  }
  const envelope = parsed ? envelopeSchema.safeParse(json) : undefined;
  if (status < 200 || status > 299) {
    const errors = envelope?.success && !envelope.data.success ? envelope.data.errors : [];
    const error = upstreamError(ex.operation, ex.route, status, errors);
    if (status === 401) throw new UnauthorizedAnswer(error);
    throw error;
  }
  if (!parsed) throw malformed(ex, status, 'a body that is not JSON');
  if (!envelope?.success) throw malformed(ex, status, 'a body that is not a {success, data} envelope');
  if (!envelope.data.success) throw malformed(ex, status, `HTTP ${status} but "success": false`);
  const data = parseAnswerData(ex.operation, ex.route, envelope.data.data, ex.sent);
  if (!data.success) {
    const errors = issuesOf(data.error).map((i) => ({ ...i, path: i.path ? `data.${i.path}` : 'data' }));
    const first = errors[0];
    throw new KitError(
      'upstream_rejected',
      `The BNPL service answered ${ex.operation} with an unexpected body: ${first?.path}: ${first?.message}`,
      { errors, extensions: { operation: ex.operation, upstream_status: status }, cause: data.error },
    );
  }
  return data.data;
}

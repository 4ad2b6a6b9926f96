/**
 * How the service's answers become kit errors. The market's own callers see these codes, so the
 * mapping is chosen from their point of view:
 *
 * - no answer in time → `upstream_timeout` (504); no connection → `upstream_unavailable` (503);
 * - a 5xx, a refused credential (401/403 after one token refresh), or an answer that is not the
 *   documented envelope → `upstream_rejected` (502);
 * - 429 → `upstream_unavailable` (503): the service is there but will not serve us now;
 * - 404 → `order_not_found` / `user_not_found` / `not_found` depending on the route;
 * - 409 → `conflict`;
 * - 400/422 → `validation_failed` (400): the market validated its input before calling, so what the
 *   service still refuses is a provider-specific rule the caller can fix (e.g. an invoice the
 *   provider requires before disbursing); the service's messages are passed on in `errors`.
 *
 * Messages of 5xx answers are never copied into our errors: they may hold the service's internals.
 */
import { type ErrorCode, KitError } from '../errors.js';
import type { EnvelopeError, RouteDefinition, ServiceOperation } from './routes.js';

export function upstreamError(
  operation: ServiceOperation,
  route: RouteDefinition,
  status: number,
  errors: EnvelopeError[],
): KitError {
  const first = errors[0];
  const extensions = { operation, upstream_status: status, upstream_code: first?.code };
  const said = first ? `: ${first.message}` : '';
  const fieldIssues = errors.map((e) => ({ path: e.code, message: e.message }));
  let code: ErrorCode;
  let message: string;
  if (status >= 500) {
    code = 'upstream_rejected';
    message = `The BNPL service failed with HTTP ${status} on ${operation}`;
    return new KitError(code, message, { extensions });
  }
  switch (status) {
    case 400:
    case 422:
      code = 'validation_failed';
      message = `The BNPL service refused ${operation}${said}`;
      break;
    case 401:
    case 403:
      code = 'upstream_rejected';
      message =
        route.auth === 'api-key'
          ? `The BNPL service refused the API key (HTTP ${status})${said}; check APP_API_KEY and that the key has the claim_provider permission`
          : `The BNPL service refused our access token (HTTP ${status}) on ${operation}${said}`;
      break;
    case 404:
      code = route.notFound ?? 'not_found';
      message = `The BNPL service does not know this resource (${operation})${said}`;
      break;
    case 409:
      code = 'conflict';
      message = `The BNPL service refused ${operation} in the current state${said}`;
      break;
    case 429:
      code = 'upstream_unavailable';
      message = `The BNPL service is rate limiting ${operation}`;
      break;
    default:
      code = 'upstream_rejected';
      message = `The BNPL service answered HTTP ${status} on ${operation}${said}`;
  }
  return new KitError(
    code,
    message,
    code === 'validation_failed' ? { errors: fieldIssues, extensions } : { extensions },
  );
}

/** Failures worth another attempt of an idempotent call: nothing was (reliably) answered. */
export function isRetryable(error: unknown): boolean {
  if (!(error instanceof KitError)) return false;
  if (error.code === 'upstream_timeout' || error.code === 'upstream_unavailable') return true;
  const status = error.extensions?.upstream_status;
  return typeof status === 'number' && status >= 500;
}

/**
 * The connection failed and nothing was answered (transport.ts: the call threw, not a timeout),
 * as opposed to an `upstream_unavailable` the service answered (429, which carries its status).
 */
export function isConnectionFailure(error: unknown): boolean {
  return (
    error instanceof KitError &&
    error.code === 'upstream_unavailable' &&
    error.extensions?.upstream_status === undefined
  );
}

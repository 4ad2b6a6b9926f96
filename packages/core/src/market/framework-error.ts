/**
 * What a framework throws outside the kit's handler (a malformed path Express cannot decode, a body
 * parser's 413, a route of the market's own app that rejects), as a `KitError`, so the error
 * handlers the adapters export answer RFC 9457 problems instead of the framework's HTML or text
 * page with a stack. A framework error's own message is never shown: it may name files or SQL.
 */
import { type ErrorCode, KitError } from '../errors.js';

function statusOf(error: unknown): number | undefined {
  const e = error as { status?: unknown; statusCode?: unknown } | null;
  const status = typeof e?.status === 'number' ? e.status : e?.statusCode;
  return typeof status === 'number' && Number.isInteger(status) ? status : undefined;
}

/** The framework statuses with a kit code of their own, and what the problem says. */
const BY_STATUS: ReadonlyMap<number, readonly [ErrorCode, string]> = new Map([
  [400, ['validation_failed', 'The request could not be read']],
  [404, ['not_found', 'No endpoint here']],
  [405, ['method_not_allowed', 'Method not allowed here']],
  [408, ['request_timeout', 'The request was not received in time']],
  [413, ['payload_too_large', 'The request body is too large']],
  [415, ['unsupported_media_type', 'Unsupported content type']],
  [431, ['headers_too_large', 'The request headers are too large']],
]);

export function kitErrorOfFramework(error: unknown): KitError {
  if (error instanceof KitError) return error;
  const status = statusOf(error);
  const cause = { cause: error };
  const known = status === undefined ? undefined : BY_STATUS.get(status);
  if (known !== undefined) return new KitError(known[0], known[1], cause);
  if (status !== undefined && status >= 400 && status < 500) {
    return new KitError('validation_failed', 'The request could not be processed', cause);
  }
  // The store reports an unreachable database as its own 503 KitError; anything else is a bug.
  return KitError.fromUnknown(error);
}

/**
 * What a framework throws outside the kit's handler (a malformed path Express cannot decode, a body
 * parser's 413, a route of the market's own app that rejects), as a `KitError`, so the error
 * handlers the adapters export answer RFC 9457 problems instead of the framework's HTML or text
 * page with a stack. A framework error's own message is never shown: it may name files or SQL.
 */
import { KitError } from '../errors.js';

function statusOf(error: unknown): number | undefined {
  const e = error as { status?: unknown; statusCode?: unknown } | null;
  const status = typeof e?.status === 'number' ? e.status : e?.statusCode;
  return typeof status === 'number' && Number.isInteger(status) ? status : undefined;
}

export function kitErrorOfFramework(error: unknown): KitError {
  if (error instanceof KitError) return error;
  const status = statusOf(error);
  const cause = { cause: error };
  switch (status) {
    case 400:
      return new KitError('validation_failed', 'The request could not be read', cause);
    case 404:
      return new KitError('not_found', 'No endpoint here', cause);
    case 405:
      return new KitError('method_not_allowed', 'Method not allowed here', cause);
    case 408:
      return new KitError('request_timeout', 'The request was not received in time', cause);
    case 413:
      return new KitError('payload_too_large', 'The request body is too large', cause);
    case 415:
      return new KitError('unsupported_media_type', 'Unsupported content type', cause);
    case 431:
      return new KitError('headers_too_large', 'The request headers are too large', cause);
  }
  if (status !== undefined && status >= 400 && status < 500) {
    return new KitError('validation_failed', 'The request could not be processed', cause);
  }
  // The store reports an unreachable database as its own 503 KitError; anything else is a bug.
  return KitError.fromUnknown(error);
}

/**
 * The one error class of the kit. Every failure that can reach a caller is a `KitError` with a code
 * from a closed union; the code decides the HTTP status and the RFC 9457 problem document
 * (WIRE.md §2). Modelled on tRPC's TRPCError: a closed code set plus `fromUnknown`.
 */

export const ERROR_STATUS = {
  validation_failed: 400,
  invalid_json: 400,
  unauthenticated: 401,
  signature_missing_header: 401,
  signature_malformed_header: 401,
  signature_unsupported_algorithm: 401,
  signature_invalid: 401,
  timestamp_out_of_window: 401,
  payload_not_raw: 500,
  forbidden: 403,
  not_found: 404,
  request_timeout: 408,
  order_not_found: 404,
  user_not_found: 404,
  method_not_allowed: 405,
  conflict: 409,
  invalid_transition: 409,
  idempotency_conflict: 409,
  payload_too_large: 413,
  too_many_requests: 429,
  headers_too_large: 431,
  unsupported_media_type: 415,
  upstream_rejected: 502,
  upstream_unavailable: 503,
  upstream_timeout: 504,
  store_unavailable: 503,
  misconfigured: 500,
  internal: 500,
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;

const ERROR_TITLES: Record<ErrorCode, string> = {
  validation_failed: 'Request validation failed',
  invalid_json: 'Body is not valid JSON',
  unauthenticated: 'Authentication required',
  signature_missing_header: 'Webhook signature header missing',
  signature_malformed_header: 'Webhook signature header malformed',
  signature_unsupported_algorithm: 'Webhook signature algorithm not supported',
  signature_invalid: 'Webhook signature does not verify',
  timestamp_out_of_window: 'Webhook timestamp outside the accepted window',
  payload_not_raw: 'Webhook body was already parsed',
  forbidden: 'Not allowed',
  not_found: 'Not found',
  request_timeout: 'The request was not received in time',
  order_not_found: 'Order not found',
  user_not_found: 'User not found',
  method_not_allowed: 'Method not allowed',
  conflict: 'Conflict',
  invalid_transition: 'Order is not in a state that allows this',
  idempotency_conflict: 'Same reference_id with different content',
  payload_too_large: 'Body too large',
  too_many_requests: 'Too many requests; retry after the time given',
  headers_too_large: 'Request headers too large',
  unsupported_media_type: 'Unsupported content type',
  upstream_rejected: 'The BNPL service rejected the request or answered badly',
  upstream_unavailable: 'The BNPL service is unreachable',
  upstream_timeout: 'The BNPL service timed out',
  store_unavailable: 'The market’s database is unavailable; try again shortly',
  misconfigured: 'The integration is misconfigured',
  internal: 'Internal error',
};

/** One field problem, with a wire-format path such as `order_lines[0].subtotal.value`. */
export interface FieldIssue {
  path: string;
  message: string;
}

export interface ProblemDocument {
  type: string;
  title: string;
  status: number;
  detail: string;
  code: ErrorCode;
  errors?: FieldIssue[];
  [extension: string]: unknown;
}

export interface KitErrorOptions {
  errors?: FieldIssue[];
  cause?: unknown;
  /** Extra members for the problem document (e.g. `skew_seconds`). Never put secrets here. */
  extensions?: Record<string, unknown>;
  /** Response headers the problem should carry (e.g. `Allow`). */
  headers?: Record<string, string>;
}

export class KitError extends Error {
  readonly code: ErrorCode;
  readonly status: number;
  readonly errors: FieldIssue[] | undefined;
  readonly extensions: Record<string, unknown> | undefined;
  readonly headers: Record<string, string> | undefined;

  constructor(code: ErrorCode, message: string, options: KitErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'KitError';
    this.code = code;
    this.status = ERROR_STATUS[code];
    this.errors = options.errors;
    this.extensions = options.extensions;
    this.headers = options.headers;
  }

  /** Wraps anything thrown into a KitError; unknown errors become `internal`, keeping the cause. */
  static fromUnknown(error: unknown): KitError {
    if (error instanceof KitError) return error;
    if (error instanceof Error && error.name === 'AbortError') {
      return new KitError('upstream_timeout', 'The operation was aborted', { cause: error });
    }
    return new KitError('internal', 'Internal error', { cause: error });
  }

  /** The RFC 9457 document. A 5xx `internal` never echoes its message: it may hold internals. */
  toProblem(): ProblemDocument {
    const detail = this.code === 'internal' ? 'An internal error occurred.' : this.message;
    const problem: ProblemDocument = {
      ...this.extensions,
      type: `urn:bnpl-kit:problem:${this.code}`,
      title: ERROR_TITLES[this.code],
      status: this.status,
      detail,
      code: this.code,
    };
    if (this.errors && this.errors.length > 0) problem.errors = this.errors;
    return problem;
  }

  toResponse(extraHeaders: Record<string, string> = {}): Response {
    return problemResponse(this, extraHeaders);
  }
}

export const PROBLEM_CONTENT_TYPE = 'application/problem+json';

export function problemResponse(error: unknown, extraHeaders: Record<string, string> = {}): Response {
  const kitError = KitError.fromUnknown(error);
  return new Response(JSON.stringify(kitError.toProblem()), {
    status: kitError.status,
    headers: { 'content-type': PROBLEM_CONTENT_TYPE, ...kitError.headers, ...extraHeaders },
  });
}

export function isKitError(error: unknown, code?: ErrorCode): error is KitError {
  return error instanceof KitError && (code === undefined || error.code === code);
}

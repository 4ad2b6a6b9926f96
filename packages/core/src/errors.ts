/**
 * The one error class of the kit. Every failure that can reach a caller is a `KitError` with a code
 * from a closed union; the code decides the HTTP status and the RFC 9457 problem document
 * (WIRE §2). Modelled on tRPC's TRPCError: a closed code set plus `fromUnknown`.
 */

interface ErrorEntry {
  readonly status: number;
  readonly title: string;
  /** When the kit answers it. */
  readonly when: string;
  /** What the client should do about it. */
  readonly action: string;
  /** Whether repeating the same request later can succeed. */
  readonly retryable: boolean;
}

/**
 * The error catalogue: every code, its status and what it means for the caller. docs/errors.md is
 * generated from this table (`pnpm docs:generate`), and each problem's `type` is its entry there.
 */
export const ERROR_CATALOGUE = {
  validation_failed: {
    status: 400,
    title: 'Request validation failed',
    when: 'A body field, path parameter or header does not match the protocol; `errors[]` lists each field by its wire path (`order_lines[0].subtotal.value`).',
    action: 'Fix the fields named in `errors[]` and send again.',
    retryable: false,
  },
  invalid_json: {
    status: 400,
    title: 'Body is not valid JSON',
    when: 'The body is empty, not UTF-8, or not JSON.',
    action: 'Send a UTF-8 JSON object.',
    retryable: false,
  },
  unauthenticated: {
    status: 401,
    title: 'Authentication required',
    when: 'No credentials, or the authentication hook rejected them, or the service token is inactive or lacks the scope.',
    action: 'Send the right bearer token (`WWW-Authenticate` names the scheme).',
    retryable: false,
  },
  signature_missing_header: {
    status: 401,
    title: 'Webhook signature header missing',
    when: 'A webhook arrived without one of Signature, X-Signature-Algorithm, X-Event-Id, X-Event-Timestamp.',
    action:
      'Service side: sign every delivery (WIRE §4). Market side: make sure a proxy does not strip the headers.',
    retryable: false,
  },
  signature_malformed_header: {
    status: 401,
    title: 'Webhook signature header malformed',
    when: 'A signature header is present but not in its wire format (base64url signature, timestamp `YYYY-MM-DDTHH:MM:SSZ`).',
    action: 'Check the header formats of WIRE §4.',
    retryable: false,
  },
  signature_unsupported_algorithm: {
    status: 401,
    title: 'Webhook signature algorithm not supported',
    when: 'X-Signature-Algorithm is not `EdDSA`.',
    action: 'Sign with Ed25519 and send `X-Signature-Algorithm: EdDSA`.',
    retryable: false,
  },
  signature_invalid: {
    status: 401,
    title: 'Webhook signature does not verify',
    when: 'The Ed25519 signature does not match the raw body, the registered URL and the headers under any configured key.',
    action:
      'Check the registered webhook URL (host and path exactly), the service public key, and that nothing re-serialized the body (`bnpl-kit webhook verify`).',
    retryable: false,
  },
  timestamp_out_of_window: {
    status: 401,
    title: 'Webhook timestamp outside the accepted window',
    when: 'X-Event-Timestamp is more than the tolerance (300 s by default) away from the receiver’s clock; `skew_seconds` says by how much.',
    action:
      'Synchronise the clocks (NTP); a captured delivery can be verified with `bnpl-kit webhook verify --now`.',
    retryable: false,
  },
  payload_not_raw: {
    status: 500,
    title: 'Webhook body was already parsed',
    when: 'A body parser consumed the webhook body before the kit, so the signed bytes are gone.',
    action:
      'Market side: mount the kit’s router before the body parser, as the detail says. The service retries the delivery.',
    retryable: true,
  },
  forbidden: {
    status: 403,
    title: 'Not allowed',
    when: 'The caller is authenticated but may not do this (claims pushed for another user’s ID).',
    action: 'Act only on the signed-in user’s own records.',
    retryable: false,
  },
  not_found: {
    status: 404,
    title: 'Not found',
    when: 'No endpoint at this path (in this integration mode; `/demo-user` only in sandbox mode).',
    action: 'Check the path, the mount prefix and the integration mode.',
    retryable: false,
  },
  request_timeout: {
    status: 408,
    title: 'The request was not received in time',
    when: 'The client sent its headers or body too slowly (the server’s header and request timeouts).',
    action: 'Send the whole request promptly; retry on a new connection.',
    retryable: true,
  },
  order_not_found: {
    status: 404,
    title: 'Order not found',
    when: 'No order with this ID is known here (market) or at the service.',
    action: 'Use the service-side order ID the order creation answered with.',
    retryable: false,
  },
  user_not_found: {
    status: 404,
    title: 'User not found',
    when: 'The service does not know the user (the `credify_id` was never issued by its offers call).',
    action: 'Get the user’s `credify_id` from the service’s offers call first, then push claims.',
    retryable: false,
  },
  method_not_allowed: {
    status: 405,
    title: 'Method not allowed',
    when: 'The path exists but not for this method; `Allow` lists the methods.',
    action: 'Use a method from the `Allow` header.',
    retryable: false,
  },
  conflict: {
    status: 409,
    title: 'Conflict',
    when: 'The request conflicts with the current state of the resource.',
    action: 'Read the current state, then decide.',
    retryable: false,
  },
  invalid_transition: {
    status: 409,
    title: 'Order is not in a state that allows this',
    when: 'Cancel or disburse asked of an order whose status does not allow it (WIRE §3).',
    action: 'Read the order’s status first; only an approved order can be cancelled or disbursed.',
    retryable: false,
  },
  idempotency_conflict: {
    status: 409,
    title: 'Same reference_id with different content',
    when: 'An order with this `reference_id` exists with different content.',
    action: 'Send the same content to get the existing order back, or use a new `reference_id`.',
    retryable: false,
  },
  payload_too_large: {
    status: 413,
    title: 'Body too large',
    when: 'The body exceeds the endpoint’s cap (256 KiB by default).',
    action: 'Send less: fewer order lines or shorter texts.',
    retryable: false,
  },
  too_many_requests: {
    status: 429,
    title: 'Too many requests; retry after the time given',
    when: 'A client made the market introspect more unknown bearer tokens than its budget allows (offer filtering).',
    action: 'Wait for `Retry-After` seconds; send a valid token.',
    retryable: true,
  },
  headers_too_large: {
    status: 431,
    title: 'Request headers too large',
    when: 'The request headers exceed the server’s limit.',
    action: 'Send fewer or shorter headers (cookies).',
    retryable: false,
  },
  unsupported_media_type: {
    status: 415,
    title: 'Unsupported content type',
    when: 'A body was sent without `Content-Type: application/json`.',
    action: 'Send JSON with `Content-Type: application/json`.',
    retryable: false,
  },
  upstream_rejected: {
    status: 502,
    title: 'The BNPL service rejected the request or answered badly',
    when: 'The service refused the call (its error is in the detail), still failed with 5xx after the client’s retries, or answered something the kit could not read.',
    action:
      'Read the detail and `upstream_status`: a 5xx or a malformed answer may pass on a later try, a refusal needs the request or configuration fixed.',
    retryable: false,
  },
  upstream_unavailable: {
    status: 503,
    title: 'The BNPL service is unreachable',
    when: 'The service could not be reached (connection refused or reset, DNS) or kept rate limiting (429) after the client’s retries.',
    action: 'Retry later with backoff; for order creation send the same `reference_id` (it is idempotent).',
    retryable: true,
  },
  upstream_timeout: {
    status: 504,
    title: 'The BNPL service timed out',
    when: 'The service did not answer within the per-call timeout.',
    action: 'Retry with the same `reference_id` or read the order’s status; the call may have succeeded.',
    retryable: true,
  },
  store_unavailable: {
    status: 503,
    title: 'The market’s database is unavailable; try again shortly',
    when: 'The market’s database did not answer (after one more try on a fresh connection).',
    action: 'Retry later with backoff; nothing was written.',
    retryable: true,
  },
  misconfigured: {
    status: 500,
    title: 'The integration is misconfigured',
    when: 'The market’s configuration cannot serve this request (for example no key to verify webhooks with).',
    action: 'Market operator: fix the configuration named in the log. Callers: retry later.',
    retryable: true,
  },
  internal: {
    status: 500,
    title: 'Internal error',
    when: 'Something failed that has no more specific code (a hook threw); the detail never says what, the log line with the request ID does.',
    action: 'Retry later; report the `x-request-id` to the market.',
    retryable: true,
  },
} as const satisfies Record<string, ErrorEntry>;

export type ErrorCode = keyof typeof ERROR_CATALOGUE;

export const ERROR_CODES = Object.keys(ERROR_CATALOGUE) as ErrorCode[];

export const ERROR_STATUS = Object.fromEntries(
  ERROR_CODES.map((code) => [code, ERROR_CATALOGUE[code].status]),
) as { readonly [Code in ErrorCode]: (typeof ERROR_CATALOGUE)[Code]['status'] };

/**
 * Where the error catalogue is published; a problem's `type` is this URL with the code as anchor,
 * and the reference servers serve the same entries at `/errors/<code>`.
 */
export const ERROR_DOCS_URL = 'https://github.com/bnpl-kit/bnpl-kit/blob/main/docs/errors.md';

/** The problem `type` of a code: its entry in the error catalogue. */
export function problemTypeOf(code: ErrorCode): string {
  return `${ERROR_DOCS_URL}#${code}`;
}

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
      type: problemTypeOf(this.code),
      title: ERROR_CATALOGUE[this.code].title,
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

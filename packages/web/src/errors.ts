/**
 * The SDK's one error type. `code` is a closed union so callers can switch on it; `status` is the
 * service's HTTP status when there was one.
 */
export type BnplSdkErrorCode =
  /** configure() was given something unusable (no API key, a bad service URL…). */
  | 'invalid_config'
  /** A call was given something unusable (no user id, no order id, no callback…). */
  | 'invalid_argument'
  /** The service could not be reached (offline, DNS, CORS refused). */
  | 'network'
  /** The service did not answer in time. */
  | 'timeout'
  /** The API key or token was refused (401/403). */
  | 'unauthorized'
  /** The service refused the request (another 4xx or `success: false`). */
  | 'rejected'
  /** The service failed or is overloaded (5xx, 429). */
  | 'unavailable'
  /** The service answered something that is not the documented envelope. */
  | 'invalid_response'
  /** A hosted flow (BNPL or passport) is already open on this page. */
  | 'flow_in_progress'
  /** There is no DOM to open a dialog in (server-side rendering). */
  | 'no_dom';

export class BnplSdkError extends Error {
  override readonly name = 'BnplSdkError';
  readonly code: BnplSdkErrorCode;
  readonly status: number | undefined;

  constructor(code: BnplSdkErrorCode, message: string, options: { status?: number; cause?: unknown } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.code = code;
    this.status = options.status;
  }
}

export function isBnplSdkError(value: unknown): value is BnplSdkError {
  return value instanceof BnplSdkError;
}

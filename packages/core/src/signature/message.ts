/**
 * The signed message of a webhook (interface.md "Authentication", WIRE §4): five parts joined
 * by LF with no trailing LF. Shared by the verifier and the signer so they cannot drift apart.
 */

export const SIGNATURE_HEADER = 'Signature';
export const ALGORITHM_HEADER = 'X-Signature-Algorithm';
export const EVENT_ID_HEADER = 'X-Event-Id';
export const EVENT_TIMESTAMP_HEADER = 'X-Event-Timestamp';
export const WEBHOOK_ALGORITHM = 'EdDSA';
export const DEFAULT_TOLERANCE_SECONDS = 300;
export const DEFAULT_MAX_BODY_BYTES = 256 * 1024;

export interface WebhookMessageParts {
  /** HTTP method, `POST` for every webhook the service sends. */
  method: string;
  /** The webhook URL as registered with the service, never one rebuilt from the Host header. */
  url: string;
  eventId: string;
  /** The `X-Event-Timestamp` header value, verbatim. */
  timestamp: string;
  /** base64url (no padding) of SHA-256 over the raw body bytes; see `webhookBodyDigest`. */
  bodyDigest: string;
}

export function webhookMessage(parts: WebhookMessageParts): string {
  return `${parts.method}\n${parts.url}\n${parts.eventId}\n${parts.timestamp}\n${parts.bodyDigest}`;
}

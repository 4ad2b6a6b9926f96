/**
 * Webhook verification (WIRE §4). Everything that costs nothing runs first — body size, header
 * presence and shape, algorithm, timestamp window — so junk and replays are turned away before any
 * public-key operation. The hot path does one digest, one message encoding and (normally) one
 * Ed25519 verify with a cached key.
 */
import { KitError } from '../errors.js';
import { base64UrlDecode } from '../util/base64url.js';
import { rawBodyBytes, type WebhookBody } from './body.js';
import { bodyDigestSyncOrAsync } from './digest.js';
import type { Ed25519BackendChoice } from './ed25519.js';
import { decodeSignature, encodeMessage, SIGNATURE_TEXT_LENGTH } from './encoding.js';
import { WebhookVerificationError } from './errors.js';
import { readSignatureHeaders, type WebhookHeadersInput } from './headers.js';
import { type Keyring, type PublicKeysInput, resolveKeyring } from './keyring.js';
import {
  DEFAULT_MAX_BODY_BYTES,
  DEFAULT_TOLERANCE_SECONDS,
  EVENT_ID_HEADER,
  EVENT_TIMESTAMP_HEADER,
  SIGNATURE_HEADER,
  WEBHOOK_ALGORITHM,
  webhookMessage,
} from './message.js';
import { parseWebhookTimestamp } from './timestamp.js';

export interface WebhookRequest {
  /** Defaults to `POST`, the only method the service uses. */
  method?: string;
  /** The webhook URL as registered with the service (configuration, never the Host header). */
  url: string;
  headers: WebhookHeadersInput;
  /** The raw body. A parsed object is refused with `payload_not_raw`. */
  body: WebhookBody;
}

export interface VerifyWebhookOptions {
  /** A keyring from `createKeyring` (fastest), or keys as accepted by `createKeyring`. */
  keys: Keyring | PublicKeysInput;
  /** The current time (a `Date` or epoch milliseconds); defaults to the clock. */
  now?: Date | number;
  /** Accepted clock skew in either direction, inclusive; default 300. */
  toleranceSeconds?: number;
  /** Bodies larger than this are refused before hashing; default 256 KiB. */
  maxBodyBytes?: number;
  /** Overrides the keyring's backend for this call. */
  backend?: Ed25519BackendChoice;
}

export interface VerifiedWebhook {
  eventId: string;
  /** `X-Event-Timestamp` as a Date. */
  timestamp: Date;
  /** Which keyring key matched: lets operators see when the old key stops being used. */
  keyIndex: number;
  /** The raw body bytes that were verified, ready for `JSON.parse` after decoding. */
  body: Uint8Array;
}

function malformed(message: string): WebhookVerificationError {
  return new WebhookVerificationError('signature_malformed_header', message);
}

// Off the hot path: only builds the most useful message for a signature header that failed.
function badSignatureHeader(text: string): WebhookVerificationError {
  const bytes = base64UrlDecode(text);
  if (bytes === undefined) {
    return malformed(`${SIGNATURE_HEADER} is not unpadded base64url (alphabet A-Z a-z 0-9 - _, no '=')`);
  }
  return malformed(`${SIGNATURE_HEADER} decodes to ${bytes.length} bytes; an Ed25519 signature is 64`);
}

/** Printable for logs and problem details: header values are attacker-controlled. */
function quote(value: string): string {
  return JSON.stringify(value.length > 64 ? `${value.slice(0, 64)}…` : value);
}

function hasControlCharacter(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x20 || c === 0x7f) return true;
  }
  return false;
}

function checkOptions(toleranceSeconds: number, maxBodyBytes: number): void {
  if (!(Number.isFinite(toleranceSeconds) && toleranceSeconds >= 0)) {
    throw new KitError(
      'misconfigured',
      `toleranceSeconds must be a non-negative number, got ${toleranceSeconds}`,
    );
  }
  if (!(Number.isInteger(maxBodyBytes) && maxBodyBytes > 0)) {
    throw new KitError('misconfigured', `maxBodyBytes must be a positive integer, got ${maxBodyBytes}`);
  }
}

function checkWindow(timestampSeconds: number, now: Date | number | undefined, tolerance: number): void {
  const nowMs = now === undefined ? Date.now() : typeof now === 'number' ? now : now.getTime();
  // Whole seconds on both sides: the header has second precision, so comparing at finer grain
  // would make the edge of the window depend on the sub-second phase of the receiver's clock.
  const skew = Math.floor(nowMs / 1000) - timestampSeconds;
  if (Math.abs(skew) <= tolerance) return;
  const direction = skew > 0 ? 'too_old' : 'too_new';
  const skewSeconds = Math.abs(skew);
  throw new WebhookVerificationError(
    'timestamp_out_of_window',
    `Clock skew of ${skewSeconds} s (${direction === 'too_old' ? 'too old' : 'too new'}); tolerance ${tolerance} s. ` +
      (direction === 'too_old'
        ? 'A delayed or replayed delivery, or this server’s clock is ahead: check NTP.'
        : 'This server’s clock is behind the sender’s: check NTP.'),
    { extensions: { skew_seconds: skewSeconds, direction, tolerance_seconds: tolerance } },
  );
}

/**
 * Verifies a webhook and returns its event ID, time and matching key, or throws a
 * `WebhookVerificationError` whose `code` says exactly what was wrong.
 */
export async function verifyWebhook(
  request: WebhookRequest,
  options: VerifyWebhookOptions,
): Promise<VerifiedWebhook> {
  const tolerance = options.toleranceSeconds ?? DEFAULT_TOLERANCE_SECONDS;
  const maxBodyBytes = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  checkOptions(tolerance, maxBodyBytes);
  const body = rawBodyBytes(request.body, maxBodyBytes);
  return verifyRawWebhook(request, body, options);
}

/**
 * `verifyWebhook` for a caller that already holds the raw bytes within its size cap (the market's
 * webhook route reads them with its one size check and its one "not raw" decision): the body is
 * neither measured nor type-checked again.
 */
export async function verifyRawWebhook(
  request: Omit<WebhookRequest, 'body'>,
  body: Uint8Array,
  options: Omit<VerifyWebhookOptions, 'maxBodyBytes'>,
): Promise<VerifiedWebhook> {
  const tolerance = options.toleranceSeconds ?? DEFAULT_TOLERANCE_SECONDS;
  const headers = readSignatureHeaders(request.headers);

  if (headers.algorithm !== WEBHOOK_ALGORITHM) {
    throw new WebhookVerificationError(
      'signature_unsupported_algorithm',
      `X-Signature-Algorithm is ${quote(headers.algorithm)}; only ${WEBHOOK_ALGORITHM} (Ed25519) is accepted`,
    );
  }
  const timestampSeconds = parseWebhookTimestamp(headers.timestamp);
  if (timestampSeconds === undefined) {
    throw malformed(
      `${EVENT_TIMESTAMP_HEADER} must be exactly YYYY-MM-DDTHH:MM:SSZ (UTC, whole seconds), got ${quote(headers.timestamp)}`,
    );
  }
  if (hasControlCharacter(headers.eventId)) {
    throw malformed(`${EVENT_ID_HEADER} contains control characters`);
  }
  const signature =
    headers.signature.length === SIGNATURE_TEXT_LENGTH ? decodeSignature(headers.signature) : undefined;
  if (signature === undefined) throw badSignatureHeader(headers.signature);
  checkWindow(timestampSeconds, options.now, tolerance);

  const keyring = resolveKeyring(options.keys);
  const pending = bodyDigestSyncOrAsync(body);
  const digest = typeof pending === 'string' ? pending : await pending;
  const method = request.method === undefined ? 'POST' : request.method.toUpperCase();
  const message = encodeMessage(
    webhookMessage({
      method,
      url: request.url,
      eventId: headers.eventId,
      timestamp: headers.timestamp,
      bodyDigest: digest,
    }),
  );
  const keyIndex = await keyring.verify(signature, message, options.backend);
  if (keyIndex < 0) {
    const keys =
      keyring.size === 1 ? 'the configured public key' : `any of the ${keyring.size} configured public keys`;
    throw new WebhookVerificationError(
      'signature_invalid',
      `Signature does not verify under ${keys}. Body re-serialized instead of the raw bytes? ` +
        `URL differs from the one registered with the service (verified against ${quote(request.url)})? Wrong or rotated key?`,
    );
  }
  return { eventId: headers.eventId, timestamp: new Date(timestampSeconds * 1000), keyIndex, body };
}

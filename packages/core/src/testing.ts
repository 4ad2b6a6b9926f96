/**
 * `@bnpl-kit/core/testing`: the signing side. Private-key code lives here and only here, so the
 * bundle a market imports to verify webhooks carries no signing code (docs/architecture.md: signing code never ships to a verifier).
 * Used by tests, the sandbox service and the CLI.
 */
import * as ed from '@noble/ed25519';
import { KitError } from './errors.js';
import { webhookBodyDigest } from './signature/digest.js';
import { type Ed25519BackendChoice, resolveBackend } from './signature/ed25519.js';
import { parseSigningKey, publicKeyToPem, seedToPkcs8Der, seedToPkcs8Pem } from './signature/keys.js';
import { ALGORITHM_HEADER, WEBHOOK_ALGORITHM, webhookMessage } from './signature/message.js';
import { formatWebhookTimestamp, parseWebhookTimestamp } from './signature/timestamp.js';
import { base64UrlDecode, base64UrlEncode } from './util/base64url.js';

const ED25519 = { name: 'Ed25519' } as const;

// Imported private keys by seed content, not identity: a key given as text (PEM or base64url, as
// certify and the CLI pass it) is parsed into a new array at every signature, and importing it
// again each time cost more than the signature. Bounded: a test run signs with many throwaway keys.
const signingKeys = new Map<string, Promise<CryptoKey>>();
const SIGNING_KEYS_KEPT = 64;

function importSigningKey(seed: Uint8Array): Promise<CryptoKey> {
  const id = base64UrlEncode(seed);
  let key = signingKeys.get(id);
  if (!key) {
    key = crypto.subtle.importKey('pkcs8', seedToPkcs8Der(seed) as Uint8Array<ArrayBuffer>, ED25519, false, [
      'sign',
    ]);
    // A rejected import is not kept: the next signature tries again.
    key.catch(() => signingKeys.delete(id));
    if (signingKeys.size >= SIGNING_KEYS_KEPT) signingKeys.delete(signingKeys.keys().next().value!);
    signingKeys.set(id, key);
  }
  return key;
}

function checkSeed(seed: Uint8Array): void {
  if (seed.length !== 32)
    throw new KitError('misconfigured', `An Ed25519 seed is 32 bytes, got ${seed.length}`);
}

/** Signs `message` with the 32-byte `seed` (RFC 8032 Ed25519): Web Crypto, or noble where missing. */
export async function ed25519Sign(
  seed: Uint8Array,
  message: Uint8Array,
  backend: Ed25519BackendChoice = 'auto',
): Promise<Uint8Array> {
  checkSeed(seed);
  if ((await resolveBackend(backend)) === 'noble') return ed.signAsync(message, seed);
  const key = await importSigningKey(seed);
  return new Uint8Array(await crypto.subtle.sign(ED25519, key, message as Uint8Array<ArrayBuffer>));
}

/** The raw 32-byte public key of a seed. */
export async function ed25519PublicKey(
  seed: Uint8Array,
  backend: Ed25519BackendChoice = 'auto',
): Promise<Uint8Array> {
  checkSeed(seed);
  if ((await resolveBackend(backend)) === 'noble') return ed.getPublicKeyAsync(seed);
  // Web Crypto cannot derive a public key directly; an extractable import exposes it as JWK `x`.
  const key = await crypto.subtle.importKey(
    'pkcs8',
    seedToPkcs8Der(seed) as Uint8Array<ArrayBuffer>,
    ED25519,
    true,
    ['sign'],
  );
  const jwk = await crypto.subtle.exportKey('jwk', key);
  const publicKey = jwk.x === undefined ? undefined : base64UrlDecode(jwk.x);
  if (publicKey?.length !== 32) throw new KitError('internal', 'Web Crypto returned no Ed25519 public key');
  return publicKey;
}

export interface GeneratedKeyPair {
  /** base64url of the raw 32-byte public key (the `SERVICE_PUBLIC_KEY` form). */
  publicKey: string;
  publicKeyPem: string;
  /** PKCS#8 PEM (the `APP_SIGNING_KEY` form). */
  privateKeyPem: string;
  /** The raw 32-byte seed. */
  seed: Uint8Array;
}

export async function generateKeyPair(): Promise<GeneratedKeyPair> {
  const seed = crypto.getRandomValues(new Uint8Array(32));
  const publicKey = await ed25519PublicKey(seed);
  return {
    publicKey: base64UrlEncode(publicKey),
    publicKeyPem: publicKeyToPem(publicKey),
    privateKeyPem: seedToPkcs8Pem(seed),
    seed,
  };
}

export interface SignWebhookOptions {
  /** The webhook URL as registered; it is part of the signed message. */
  url: string;
  /** Bytes or text are signed as given; any other value is sent as `JSON.stringify(value)`. */
  body: Uint8Array | string | object;
  /** PKCS#8 PEM (with or without BEGIN/END lines), base64url seed, or the seed bytes. */
  signingKey: string | Uint8Array;
  /** Defaults to `evt_<uuid>`. */
  eventId?: string;
  /** A Date (milliseconds are dropped) or an exact `YYYY-MM-DDTHH:MM:SSZ`; defaults to now. */
  timestamp?: Date | string;
  /** Defaults to `POST`. */
  method?: string;
  backend?: Ed25519BackendChoice;
}

export interface SignedWebhook {
  /** The headers to send, signature headers included. */
  headers: Record<string, string>;
  /** The exact bytes that were signed: send these, unchanged. */
  body: Uint8Array<ArrayBuffer>;
  /** The signed five-line message, for debugging. */
  message: string;
}

function bodyBytes(body: SignWebhookOptions['body']): Uint8Array<ArrayBuffer> {
  // A copy: the caller may reuse its buffer, and `fetch` wants an ArrayBuffer-backed view.
  if (body instanceof Uint8Array) return new Uint8Array(body);
  return new TextEncoder().encode(typeof body === 'string' ? body : JSON.stringify(body));
}

function timestampHeader(timestamp: Date | string | undefined): string {
  if (timestamp === undefined) return formatWebhookTimestamp(new Date());
  if (timestamp instanceof Date) return formatWebhookTimestamp(timestamp);
  if (parseWebhookTimestamp(timestamp) === undefined) {
    throw new KitError(
      'validation_failed',
      `timestamp must be YYYY-MM-DDTHH:MM:SSZ, got ${JSON.stringify(timestamp)}`,
    );
  }
  return timestamp;
}

/** Signs a webhook the way the service does (WIRE §4). */
export async function signWebhook(options: SignWebhookOptions): Promise<SignedWebhook> {
  const seed = parseSigningKey(options.signingKey);
  const body = bodyBytes(options.body);
  const eventId = options.eventId ?? `evt_${crypto.randomUUID()}`;
  const timestamp = timestampHeader(options.timestamp);
  const message = webhookMessage({
    method: options.method ?? 'POST',
    url: options.url,
    eventId,
    timestamp,
    bodyDigest: await webhookBodyDigest(body),
  });
  const signature = await ed25519Sign(seed, new TextEncoder().encode(message), options.backend);
  return {
    headers: {
      'Content-Type': 'application/json',
      Accept: 'application/json',
      Signature: base64UrlEncode(signature),
      [ALGORITHM_HEADER]: WEBHOOK_ALGORITHM,
      'X-Event-Id': eventId,
      'X-Event-Timestamp': timestamp,
    },
    body,
    message,
  };
}

// Fixtures and helpers for every package's tests, in one home.
// The memory store: for tests only (createMarket refuses it in production, it forgets on restart).
export { createMemoryStore, type MemoryStore, type MemoryStoreOptions } from './market/memory-store.js';
export { kitErrorOf, kitErrorThrownBy } from './testing/kit-error.js';
export { orderFixture, orderLineFixture, wireOrder, wireOrderLine } from './testing/orders.js';
export { type PollOptions, PollTimeout, pollUntil } from './testing/poll.js';

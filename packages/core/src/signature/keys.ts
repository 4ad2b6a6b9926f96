/**
 * Ed25519 key parsing. Public keys arrive as base64url of the raw 32 bytes or as PEM SPKI; signing
 * keys as PKCS#8 PEM (with or without the BEGIN/END lines, as the dashboard shows them) or as the raw
 * 32-byte seed in base64url. Everything is normalised to raw bytes here, once, so the hot path never
 * parses a key.
 */
import { KitError } from '../errors.js';
import { base64UrlDecode } from '../util/base64url.js';

// DER prefixes for Ed25519 (RFC 8410): the key bytes are always the last 32 bytes.
const SPKI_PREFIX = Uint8Array.from([0x30, 0x2a, 0x30, 0x05, 0x06, 0x03, 0x2b, 0x65, 0x70, 0x03, 0x21, 0x00]);
const PKCS8_PREFIX = Uint8Array.from([
  0x30, 0x2e, 0x02, 0x01, 0x00, 0x30, 0x05, 0x06, 0x03, 0x2b, 0x65, 0x70, 0x04, 0x22, 0x04, 0x20,
]);

function startsWith(bytes: Uint8Array, prefix: Uint8Array): boolean {
  if (bytes.length < prefix.length) return false;
  for (let i = 0; i < prefix.length; i++) if (bytes[i] !== prefix[i]) return false;
  return true;
}

function decodeStandardBase64(text: string): Uint8Array | undefined {
  const clean = text.replace(/\s+/g, '');
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(clean) || clean.length % 4 !== 0) return undefined;
  return Uint8Array.from(atob(clean), (c) => c.charCodeAt(0));
}

function encodeStandardBase64(bytes: Uint8Array): string {
  let binary = '';
  for (const b of bytes) binary += String.fromCharCode(b);
  return btoa(binary);
}

function pemBody(text: string): string | undefined {
  const match = /-----BEGIN ([A-Z ]+)-----([\s\S]*?)-----END \1-----/.exec(text);
  return match?.[2];
}

/** Parses one public key (base64url raw 32 bytes, or PEM SPKI) into its raw 32 bytes. */
export function parsePublicKey(input: string | Uint8Array): Uint8Array {
  if (input instanceof Uint8Array) {
    if (input.length === 32) return input;
    throw new KitError('misconfigured', `An Ed25519 public key is 32 bytes, got ${input.length}`);
  }
  // Environment files often carry PEM newlines as a literal backslash-n.
  const text = input.trim().replace(/\\n/g, '\n');
  const body = pemBody(text);
  if (body !== undefined) {
    const der = decodeStandardBase64(body);
    if (der && der.length === 44 && startsWith(der, SPKI_PREFIX)) return der.subarray(12);
    throw new KitError('misconfigured', 'The PEM public key is not an Ed25519 SPKI key');
  }
  const raw = base64UrlDecode(text);
  if (raw && raw.length === 32) return raw;
  throw new KitError(
    'misconfigured',
    'A public key must be base64url of the raw 32-byte Ed25519 key or a PEM "PUBLIC KEY" block',
  );
}

/** Parses a keyring: several keys separated by commas or given as an array (key rotation). */
export function parsePublicKeys(input: string | readonly (string | Uint8Array)[]): Uint8Array[] {
  const items = typeof input === 'string' ? splitKeyList(input) : input;
  const keys = items.map((item) => parsePublicKey(item));
  if (keys.length === 0) throw new KitError('misconfigured', 'No public key given');
  return keys;
}

function splitKeyList(text: string): string[] {
  // PEM blocks may themselves contain no commas, so a comma split is safe for both forms.
  return text
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s.length > 0);
}

/**
 * Parses a signing key into its 32-byte seed: PKCS#8 PEM, the PKCS#8 base64 body without the
 * BEGIN/END lines, or base64url of the raw seed.
 */
export function parseSigningKey(input: string | Uint8Array): Uint8Array {
  if (input instanceof Uint8Array) {
    if (input.length === 32) return input;
    if (input.length === 48 && startsWith(input, PKCS8_PREFIX)) return input.subarray(16);
    throw new KitError('misconfigured', 'An Ed25519 signing key is a 32-byte seed or a 48-byte PKCS#8 DER');
  }
  const text = input.trim().replace(/\\n/g, '\n');
  const body = pemBody(text) ?? text;
  const der = decodeStandardBase64(body);
  if (der && der.length === 48 && startsWith(der, PKCS8_PREFIX)) return der.subarray(16);
  const raw = base64UrlDecode(text);
  if (raw && raw.length === 32) return raw;
  throw new KitError(
    'misconfigured',
    'APP_SIGNING_KEY must be an Ed25519 PKCS#8 PEM (with or without the BEGIN/END lines) or a base64url 32-byte seed',
  );
}

export function publicKeyToPem(publicKey: Uint8Array): string {
  const der = new Uint8Array(44);
  der.set(SPKI_PREFIX);
  der.set(publicKey, 12);
  return `-----BEGIN PUBLIC KEY-----\n${encodeStandardBase64(der)}\n-----END PUBLIC KEY-----\n`;
}

export function seedToPkcs8Der(seed: Uint8Array): Uint8Array {
  const der = new Uint8Array(48);
  der.set(PKCS8_PREFIX);
  der.set(seed, 16);
  return der;
}

export function seedToPkcs8Pem(seed: Uint8Array): string {
  return `-----BEGIN PRIVATE KEY-----\n${encodeStandardBase64(seedToPkcs8Der(seed))}\n-----END PRIVATE KEY-----\n`;
}

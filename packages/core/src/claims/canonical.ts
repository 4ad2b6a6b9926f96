/**
 * RFC 8785 (JCS) canonical JSON and the per-scope hash a claim token carries (WIRE §7). Market and
 * provider serialise the same claims independently, so the bytes must not depend on key order or
 * number formatting; we rely on `canonicalize` rather than a hand-written serialiser.
 */
import canonicalize from 'canonicalize';
import { KitError } from '../errors.js';
import { base64UrlEncode, utf8 } from '../util/base64url.js';
import { sha256 } from '../util/bytes.js';
import type { ScopeClaims } from './types.js';

/** Canonical JSON text; anything JSON cannot carry faithfully (NaN, Infinity, a bare `undefined`) is refused. */
export function canonicalJson(value: unknown): string {
  let text: string | undefined;
  try {
    text = canonicalize(value);
  } catch (error) {
    throw new KitError('validation_failed', `Value cannot be canonicalised: ${(error as Error).message}`, {
      cause: error,
    });
  }
  if (text === undefined) throw new KitError('validation_failed', 'Value cannot be represented as JSON');
  return text;
}

/**
 * base64url(SHA-256(canonical JSON of ONE scope's claim map, commitment entry included)). Hashing a
 * single scope (unlike the prior art, which hashed every scope into each token) lets a provider
 * check a scope it received without needing the others.
 */
export async function scopeHash(scopeClaims: ScopeClaims): Promise<string> {
  return base64UrlEncode(await sha256(utf8(canonicalJson(scopeClaims))));
}

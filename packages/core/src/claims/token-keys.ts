/**
 * Imports Ed25519 keys for jose once per key. Key import is the slow part of signing a claim token
 * and a push signs one token per scope with the same organisation key, so imports are cached.
 */

import { parsePublicKey, seedToPkcs8Pem } from '../signature/keys.js';
import { base64UrlEncode } from '../util/base64url.js';
import { sha256 } from '../util/bytes.js';
import { loadJose } from './jose.js';

// A process holds one or two organisation keys (rotation); the cap only guards against misuse.
const MAX_CACHED_KEYS = 16;
const privateKeys = new Map<string, Promise<CryptoKey>>();
const publicKeys = new Map<string, Promise<CryptoKey>>();

function cached(cache: Map<string, Promise<CryptoKey>>, id: string, load: () => Promise<CryptoKey>) {
  const hit = cache.get(id);
  if (hit) return hit;
  if (cache.size >= MAX_CACHED_KEYS) cache.clear();
  const loading = load();
  cache.set(id, loading);
  // A failed import must not poison the cache for the next attempt.
  loading.catch(() => cache.delete(id));
  return loading;
}

/** The seed is a secret, so the cache is keyed by its digest rather than by the seed itself. */
export async function importSigningSeed(seed: Uint8Array): Promise<CryptoKey> {
  const id = base64UrlEncode(await sha256(seed));
  return cached(privateKeys, id, async () => (await loadJose()).importPKCS8(seedToPkcs8Pem(seed), 'EdDSA'));
}

/** Accepts what `parsePublicKey` accepts: base64url of the raw 32 bytes, PEM SPKI, or raw bytes. */
export async function importVerifyKey(publicKey: string | Uint8Array): Promise<CryptoKey> {
  const x = base64UrlEncode(parsePublicKey(publicKey));
  return cached(publicKeys, x, async () => {
    const key = await (await loadJose()).importJWK({ kty: 'OKP', crv: 'Ed25519', x }, 'EdDSA');
    if (key instanceof Uint8Array) throw new TypeError('Expected an asymmetric key');
    return key;
  });
}

/**
 * SHA-256 of the raw body, as base64url: part 5 of the signed message.
 *
 * Web Crypto is the portable path. Where the runtime offers a synchronous native hash (Node, Bun
 * and Deno expose `node:crypto` through `process.getBuiltinModule`), we use it instead: a second
 * `crypto.subtle` round trip per webhook costs about a fifth of the verification throughput, while
 * a native one-shot hash of a small body costs next to nothing. The probe is a property lookup, not
 * an import, so bundles for Workers or browsers stay free of Node built-ins and fall back silently.
 */
import { base64UrlEncode } from '../util/base64url.js';

type NativeHash = (algorithm: string, data: Uint8Array, encoding: 'base64url') => string;

function findNativeHash(): NativeHash | undefined {
  try {
    const proc = (globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } }).process;
    const mod = proc?.getBuiltinModule?.('node:crypto') as { hash?: unknown } | undefined;
    // `crypto.hash` (Node ≥ 20.12) is the one-shot form; older runtimes simply use Web Crypto.
    return typeof mod?.hash === 'function' ? (mod.hash as NativeHash) : undefined;
  } catch {
    return undefined;
  }
}

const nativeHash = findNativeHash();

/** Web Crypto only; exported so tests can check both paths agree. */
export async function sha256Base64UrlWebCrypto(bytes: Uint8Array): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', bytes as Uint8Array<ArrayBuffer>);
  return base64UrlEncode(new Uint8Array(digest));
}

/**
 * The hot-path form: synchronous when the runtime allows, so the verifier awaits only when it must
 * (every `await` is a microtask hop, and this runs once per webhook).
 */
export function bodyDigestSyncOrAsync(body: Uint8Array): Promise<string> | string {
  return nativeHash ? nativeHash('sha256', body, 'base64url') : sha256Base64UrlWebCrypto(body);
}

/** base64url (no padding) of SHA-256 over the raw body bytes: the fifth part of the signed message. */
export async function webhookBodyDigest(body: Uint8Array | string): Promise<string> {
  return bodyDigestSyncOrAsync(typeof body === 'string' ? new TextEncoder().encode(body) : body);
}

/** Which digest path this runtime uses (reported by the benchmark). */
export const bodyDigestBackend: 'native' | 'webcrypto' = nativeHash ? 'native' : 'webcrypto';

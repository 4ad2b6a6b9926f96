/**
 * Ed25519 verification backends. On Node, `node:crypto`'s one-shot `verify` (OpenSSL, the same code
 * Node's Web Crypto runs) is the fastest: Web Crypto in Node sends each verification to the libuv
 * thread pool and back, which costs more than the verification itself (73 µs of CPU synchronously
 * against 125 µs through `crypto.subtle` on the development machine). Elsewhere Web Crypto is native
 * and about 20× faster than pure JavaScript; @noble/ed25519 covers runtimes whose Web Crypto has no
 * Ed25519 yet. All verify strictly per RFC 8032 (noble with `zip215: false`), so a signature cannot
 * pass on one backend and fail on another (every test vector runs on each). noble's async API hashes
 * with Web Crypto's SHA-512, so no `ed.hashes` wiring (a global side effect on a shared module) is
 * needed.
 */
import * as ed from '@noble/ed25519';
import { KitError } from '../errors.js';
import { base64UrlEncode } from '../util/base64url.js';
import { nodeBuiltins } from '../util/node-proper.js';

export type Ed25519Backend = 'node' | 'webcrypto' | 'noble';
/** `auto` picks `node:crypto` on Node, else Web Crypto when it supports Ed25519, else noble. */
export type Ed25519BackendChoice = Ed25519Backend | 'auto';

const ED25519 = { name: 'Ed25519' } as const;

// RFC 8032 §7.1 TEST 1 public key: a known-good key for probing support.
const PROBE_KEY = Uint8Array.from([
  0xd7, 0x5a, 0x98, 0x01, 0x82, 0xb1, 0x0a, 0xb7, 0xd5, 0x4b, 0xfe, 0xd3, 0xc9, 0x64, 0x07, 0x3a, 0x0e, 0xe1,
  0x72, 0xf3, 0xda, 0xa6, 0x23, 0x25, 0xaf, 0x02, 0x1a, 0x68, 0xf7, 0x07, 0x51, 0x1a,
]);

/** A `node:crypto` KeyObject, opaque here: core imports nothing from Node. */
export type NodeVerifyKey = { readonly type: 'public' };

interface NodeCrypto {
  createPublicKey(input: { key: JsonWebKey; format: 'jwk' }): NodeVerifyKey;
  verify(algorithm: null, data: Uint8Array, key: NodeVerifyKey, signature: Uint8Array): boolean;
}

/**
 * `node:crypto` on Node proper (util/node-proper.ts), found as digest.ts finds its hash. Bun, Deno
 * and workerd answer `getBuiltinModule('node:crypto')` with implementations of their own, whose
 * Ed25519 strictness is not what their Web Crypto has been tested for here: they keep Web Crypto.
 */
function findNodeCrypto(): NodeCrypto | undefined {
  try {
    const mod = nodeBuiltins()?.('node:crypto') as Partial<NodeCrypto> | undefined;
    return typeof mod?.verify === 'function' && typeof mod.createPublicKey === 'function'
      ? (mod as NodeCrypto)
      : undefined;
  } catch {
    return undefined;
  }
}

const nodeCrypto = findNodeCrypto();

/** Whether the `node` backend is available: Node itself, with `process.getBuiltinModule`. */
export function hasNodeEd25519(): boolean {
  return nodeCrypto !== undefined;
}

/** A raw 32-byte public key as a `node:crypto` KeyObject; `misconfigured` off Node. */
export function importNodeVerifyKey(publicKey: Uint8Array): NodeVerifyKey {
  if (!nodeCrypto) {
    throw new KitError(
      'misconfigured',
      "The 'node' Ed25519 backend needs Node's node:crypto, which this runtime does not offer; use backend 'auto', 'webcrypto' or 'noble'",
    );
  }
  return nodeCrypto.createPublicKey({
    key: { kty: 'OKP', crv: 'Ed25519', x: base64UrlEncode(publicKey) },
    format: 'jwk',
  });
}

/** Synchronous: no thread-pool round trip, which would cost more than the verification. */
export function nodeVerify(key: NodeVerifyKey, signature: Uint8Array, message: Uint8Array): boolean {
  try {
    return nodeCrypto!.verify(null, message, key, signature);
  } catch {
    // OpenSSL refuses some malformed inputs with an error; the caller checked lengths: "invalid".
    return false;
  }
}

let webCryptoSupport: Promise<boolean> | undefined;

/** Whether this runtime's Web Crypto can verify Ed25519. Probed once, then cached. */
export function hasWebCryptoEd25519(): Promise<boolean> {
  webCryptoSupport ??= (async () => {
    try {
      const key = await crypto.subtle.importKey('raw', PROBE_KEY, ED25519, false, ['verify']);
      await crypto.subtle.verify(ED25519, key, new Uint8Array(64), new Uint8Array(0));
      return true;
    } catch {
      return false;
    }
  })();
  return webCryptoSupport;
}

export async function resolveBackend(choice: Ed25519BackendChoice): Promise<Ed25519Backend> {
  if (choice !== 'auto') return choice;
  if (nodeCrypto) return 'node';
  return (await hasWebCryptoEd25519()) ? 'webcrypto' : 'noble';
}

export function importVerifyKey(publicKey: Uint8Array): Promise<CryptoKey> {
  return crypto.subtle.importKey('raw', publicKey as Uint8Array<ArrayBuffer>, ED25519, false, ['verify']);
}

export function webCryptoVerify(
  key: CryptoKey,
  signature: Uint8Array,
  message: Uint8Array,
): Promise<boolean> {
  return crypto.subtle.verify(
    ED25519,
    key,
    signature as Uint8Array<ArrayBuffer>,
    message as Uint8Array<ArrayBuffer>,
  );
}

const STRICT = { zip215: false } as const;

export async function nobleVerify(
  publicKey: Uint8Array,
  signature: Uint8Array,
  message: Uint8Array,
): Promise<boolean> {
  try {
    return await ed.verifyAsync(signature, message, publicKey, STRICT);
  } catch {
    // noble throws on malformed lengths; the caller checked those, so anything here is "invalid".
    return false;
  }
}

/**
 * Checks that `publicKey` decodes to a usable curve point (strict RFC 8032 encoding, not of small
 * order), so a broken key is reported when the keyring is built rather than as a mysterious
 * "signature invalid" on the first webhook.
 */
export function isValidPublicKey(publicKey: Uint8Array): boolean {
  try {
    return !ed.Point.fromBytes(publicKey, false).isSmallOrder();
  } catch {
    return false;
  }
}

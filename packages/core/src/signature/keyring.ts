/**
 * A keyring holds the service's public keys (several during a rotation), parsed once. `node:crypto`
 * KeyObjects and Web Crypto `CryptoKey`s are imported on first use and kept, so verifying a webhook
 * never re-parses or re-imports a key.
 */
import { KitError } from '../errors.js';
import {
  type Ed25519Backend,
  type Ed25519BackendChoice,
  hasNodeEd25519,
  importNodeVerifyKey,
  importVerifyKey,
  isValidPublicKey,
  type NodeVerifyKey,
  nobleVerify,
  nodeVerify,
  resolveBackend,
  webCryptoVerify,
} from './ed25519.js';
import { parsePublicKey, parsePublicKeys } from './keys.js';

/** One public key: base64url of the raw 32 bytes, a PEM SPKI block, or the raw bytes. */
export type PublicKeyInput = string | Uint8Array;
/** A key, a comma-separated list of keys (as in `SERVICE_PUBLIC_KEY`), or an array of keys. */
export type PublicKeysInput = PublicKeyInput | readonly PublicKeyInput[];

export interface KeyringOptions {
  /** Default backend for `verify`; `auto` (the default) prefers `node:crypto` on Node, then Web Crypto. */
  backend?: Ed25519BackendChoice;
}

const firstOrNone = (ok: boolean): number => (ok ? 0 : -1);

// A registry symbol rather than `instanceof`, so a keyring made by another copy of this package
// (a dual ESM/CJS install, say) is still recognised.
const KEYRING = Symbol.for('bnpl-kit.keyring');

export class Keyring {
  readonly [KEYRING] = true;
  /** Raw 32-byte public keys, in the order given; `keyIndex` in results refers to this order. */
  readonly publicKeys: readonly Uint8Array[];
  readonly backend: Ed25519BackendChoice;
  #cryptoKeys: CryptoKey[] | undefined;
  #nodeKeys: NodeVerifyKey[] | undefined;
  #importing: Promise<CryptoKey[]> | undefined;
  #auto: Ed25519Backend | undefined;

  constructor(publicKeys: readonly Uint8Array[], options: KeyringOptions = {}) {
    if (publicKeys.length === 0)
      throw new KitError('misconfigured', 'A keyring needs at least one public key');
    publicKeys.forEach((key, i) => {
      if (!isValidPublicKey(key)) {
        throw new KitError(
          'misconfigured',
          `Public key #${i + 1} is 32 bytes but not a valid Ed25519 public key`,
        );
      }
    });
    this.publicKeys = publicKeys;
    this.backend = options.backend ?? 'auto';
    // Known without probing: the first verification takes the synchronous path too.
    if (hasNodeEd25519()) this.#auto = 'node';
  }

  get size(): number {
    return this.publicKeys.length;
  }

  /**
   * Index of the first key under which `signature` verifies `message`, or -1. Keys are tried in
   * order, so put the current key first during a rotation.
   */
  verify(signature: Uint8Array, message: Uint8Array, choice?: Ed25519BackendChoice): Promise<number> {
    const requested = choice ?? this.backend;
    // On Node: synchronous, so one settled promise and no thread-pool round trip.
    if (requested === 'node' || (requested === 'auto' && this.#auto === 'node')) {
      try {
        return Promise.resolve(this.#verifyNode(signature, message));
      } catch (error) {
        return Promise.reject(error);
      }
    }
    // Fast path, once warm: one key, already imported — a single Web Crypto call, no extra awaits.
    const keys = this.#cryptoKeys;
    if (
      keys?.length === 1 &&
      (requested === 'webcrypto' || (requested === 'auto' && this.#auto === 'webcrypto'))
    ) {
      return webCryptoVerify(keys[0]!, signature, message).then(firstOrNone);
    }
    return this.#verifyAny(signature, message, requested);
  }

  async #verifyAny(
    signature: Uint8Array,
    message: Uint8Array,
    choice: Ed25519BackendChoice,
  ): Promise<number> {
    const backend = await this.#backend(choice);
    if (backend === 'node') return this.#verifyNode(signature, message);
    if (backend === 'noble') {
      for (let i = 0; i < this.publicKeys.length; i++) {
        if (await nobleVerify(this.publicKeys[i]!, signature, message)) return i;
      }
      return -1;
    }
    const keys = this.#cryptoKeys ?? (await this.#importAll());
    for (let i = 0; i < keys.length; i++) {
      if (await webCryptoVerify(keys[i]!, signature, message)) return i;
    }
    return -1;
  }

  /** Resolves the backend and imports the keys now, e.g. at start-up, to take that off the first request. */
  async warmUp(choice?: Ed25519BackendChoice): Promise<Ed25519Backend> {
    const backend = await this.#backend(choice ?? this.backend);
    if (backend === 'webcrypto') await this.#importAll();
    if (backend === 'node') this.#importNode();
    return backend;
  }

  #importNode(): NodeVerifyKey[] {
    this.#nodeKeys ??= this.publicKeys.map(importNodeVerifyKey);
    return this.#nodeKeys;
  }

  #verifyNode(signature: Uint8Array, message: Uint8Array): number {
    const keys = this.#importNode();
    for (let i = 0; i < keys.length; i++) {
      if (nodeVerify(keys[i]!, signature, message)) return i;
    }
    return -1;
  }

  #backend(choice: Ed25519BackendChoice): Ed25519Backend | Promise<Ed25519Backend> {
    if (choice !== 'auto') return choice;
    if (this.#auto) return this.#auto;
    return resolveBackend('auto').then((backend) => {
      this.#auto = backend;
      return backend;
    });
  }

  #importAll(): Promise<CryptoKey[]> {
    this.#importing ??= Promise.all(this.publicKeys.map(importVerifyKey)).then(
      (keys) => {
        this.#cryptoKeys = keys;
        return keys;
      },
      (error: unknown) => {
        this.#importing = undefined;
        throw new KitError(
          'misconfigured',
          "This runtime's Web Crypto cannot import Ed25519 keys; use backend 'auto' or 'noble'",
          { cause: error },
        );
      },
    );
    return this.#importing;
  }
}

/** Parses `input` once into a keyring. Reuse the result: that is what keeps verification fast. */
export function createKeyring(input: PublicKeysInput, options: KeyringOptions = {}): Keyring {
  const list = typeof input === 'string' || input instanceof Uint8Array ? [input] : input;
  // A string may itself be a comma-separated list; `parsePublicKeys` splits those.
  const keys = list.flatMap((item) =>
    typeof item === 'string' ? parsePublicKeys(item) : [parsePublicKey(item)],
  );
  // Own copies: the caller's buffers may be reused or mutated after this returns.
  return new Keyring(
    keys.map((key) => key.slice()),
    options,
  );
}

function isKeyring(value: unknown): value is Keyring {
  return typeof value === 'object' && value !== null && (value as { [KEYRING]?: unknown })[KEYRING] === true;
}

// Callers that pass raw keys on every call (`keys: process.env.SERVICE_PUBLIC_KEY`) still get a
// cached keyring. Strings are cached in a bounded map; arrays and byte arrays by identity, so they
// must not be mutated after first use.
const byText = new Map<string, Keyring>();
const byObject = new WeakMap<object, Keyring>();
const MAX_CACHED = 64;

/** The keyring for `input`: itself if it is one, otherwise a cached parse of it. */
export function resolveKeyring(input: Keyring | PublicKeysInput): Keyring {
  if (isKeyring(input)) return input;
  if (typeof input === 'string') {
    let keyring = byText.get(input);
    if (!keyring) {
      keyring = createKeyring(input);
      if (byText.size >= MAX_CACHED) byText.clear();
      byText.set(input, keyring);
    }
    return keyring;
  }
  let keyring = byObject.get(input);
  if (!keyring) {
    keyring = createKeyring(input);
    byObject.set(input, keyring);
  }
  return keyring;
}

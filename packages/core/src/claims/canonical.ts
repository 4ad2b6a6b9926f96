/**
 * RFC 8785 (JCS) canonical JSON and the per-scope hash a claim token carries (WIRE §7). Market and
 * provider serialise the same claims independently, so the bytes must not depend on key order or
 * number formatting; we rely on `canonicalize` for anything but plain JSON data, and write plain
 * data (what codecs and `JSON.parse` make) ourselves with the same rules, since every order's
 * fingerprint goes through here and the library's copies were a tenth of its allocation
 * (bench/profile-orders.ts). test/claims-canonical.test.ts holds the two to the same bytes.
 */
import canonicalize from 'canonicalize';
import { KitError } from '../errors.js';
import { base64UrlEncode, utf8 } from '../util/base64url.js';
import { sha256 } from '../util/bytes.js';
import type { ScopeClaims } from './types.js';

/** Thrown by `writePlain` at anything it leaves to `canonicalize` (as is any other failure). */
const NOT_PLAIN = Symbol('not plain JSON data');

/**
 * Keys in UTF-16 code unit order, as `Array.prototype.sort` orders strings, sorted in place: by
 * insertion for the few keys of a wire object (the built-in sort copies them first).
 */
function sortKeys(keys: string[]): string[] {
  if (keys.length > 16) return keys.sort();
  for (let i = 1; i < keys.length; i++) {
    const key = keys[i]!;
    let j = i - 1;
    while (j >= 0 && keys[j]! > key) {
      keys[j + 1] = keys[j]!;
      j--;
    }
    keys[j + 1] = key;
  }
  return keys;
}

/**
 * JCS of plain data: strings and numbers as `JSON.stringify` writes them (what `canonicalize`
 * does), keys sorted, members whose value is `undefined` left out. Throws `NOT_PLAIN` at a
 * non-finite number, an `undefined` array element, or an object that is not a plain one.
 */
function writePlain(value: unknown): string {
  switch (typeof value) {
    case 'string':
    case 'boolean':
      return JSON.stringify(value);
    case 'number':
      if (!Number.isFinite(value)) throw NOT_PLAIN;
      return JSON.stringify(value);
    case 'object': {
      if (value === null) return 'null';
      if (Array.isArray(value)) {
        let out = '[';
        for (let i = 0; i < value.length; i++) {
          const element: unknown = value[i];
          // `canonicalize` writes a missing element as null: its call.
          if (element === undefined) throw NOT_PLAIN;
          out += i > 0 ? `,${writePlain(element)}` : writePlain(element);
        }
        return `${out}]`;
      }
      const proto = Object.getPrototypeOf(value);
      if (proto !== Object.prototype && proto !== null) throw NOT_PLAIN;
      const object = value as Record<string, unknown>;
      let out = '{';
      for (const key of sortKeys(Object.keys(object))) {
        const member = object[key];
        if (member === undefined) continue;
        if (out.length > 1) out += ',';
        out += `${JSON.stringify(key)}:${writePlain(member)}`;
      }
      return `${out}}`;
    }
    default:
      throw NOT_PLAIN;
  }
}

/** Canonical JSON text; anything JSON cannot carry faithfully (NaN, Infinity, a bare `undefined`) is refused. */
export function canonicalJson(value: unknown): string {
  try {
    return writePlain(value);
  } catch {
    // Not plain data, or too deep for the stack: `canonicalize` answers, or fails, as it always did.
  }
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

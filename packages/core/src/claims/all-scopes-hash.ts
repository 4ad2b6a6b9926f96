/**
 * The prior-art service's `scope_hash` (WIRE §7, `CLAIM_SCOPE_HASH=all-scopes`), for a service that
 * verifies claim tokens its way. The kit's default hashes one scope (canonical.ts); the prior art
 * hashed, for every scope's token, one object holding every scope's claim map plus that scope's
 * commitment under its commitment key at the top level, serialised as "keys sorted, then
 * JSON.stringify". That serialisation is not RFC 8785 in two corners, which are reproduced here on
 * purpose because matching the prior art byte for byte is this mode's only job:
 *  - integer-like keys ("2", "10") come out in numeric order (JavaScript's own property order);
 *  - an array directly inside an array is serialised as an object keyed "0", "1", ….
 * Both are proven against the prior art's own library in test/claims-prior-art.test.ts.
 */
import { KitError } from '../errors.js';
import { base64UrlEncode, utf8 } from '../util/base64url.js';
import { sha256 } from '../util/bytes.js';
import { commitmentKeyFor } from './names.js';
import type { ClaimObject } from './types.js';

// The modes are configuration (models/config.ts), which sits below the claims layer.
export { CLAIM_SCOPE_HASH_MODES, type ClaimScopeHash } from '../models/config.js';

function sortedObject(value: object): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const record = value as Record<string, unknown>;
  for (const key of Object.keys(record).sort()) out[key] = sortedMember(record[key]);
  return out;
}

/** A member of an object: arrays keep their shape, their elements go through `sortedElement`. */
function sortedMember(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortedElement);
  if (typeof value === 'object' && value !== null) return sortedObject(value);
  return value;
}

/** An array element: any object, an array included, becomes a sorted-key object. */
function sortedElement(value: unknown): unknown {
  return typeof value === 'object' && value !== null ? sortedObject(value) : value;
}

/** The prior art's serialisation of a claim object ("sort keys, then JSON.stringify"). */
export function priorArtJson(value: Record<string, unknown>): string {
  const text = JSON.stringify(sortedObject(value));
  if (text === undefined) throw new KitError('validation_failed', 'Value cannot be represented as JSON');
  return text;
}

/** The object the prior art hashes for `scopeName`'s token: every scope without commitments, plus this one's. */
export function allScopesHashInput(
  claims: ClaimObject,
  scopeName: string,
  commitment: string,
): Record<string, unknown> {
  const top: Record<string, unknown> = {};
  for (const [name, scopeClaims] of Object.entries(claims)) {
    const ownKey = commitmentKeyFor(name);
    const rest: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(scopeClaims)) if (key !== ownKey) rest[key] = value;
    top[name] = rest;
  }
  top[commitmentKeyFor(scopeName)] = commitment;
  return top;
}

export async function allScopesHash(
  claims: ClaimObject,
  scopeName: string,
  commitment: string,
): Promise<string> {
  return base64UrlEncode(await sha256(utf8(priorArtJson(allScopesHashInput(claims, scopeName, commitment)))));
}

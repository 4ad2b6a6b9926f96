/**
 * Bearer tokens for the two authentication hooks, compared in constant time. Both sides are
 * hashed with SHA-256 first, so the comparison neither stops at the first differing character nor
 * reveals the expected token's length. Web Crypto only: the same code runs on every runtime.
 */
import { KitError } from '../errors.js';
import { isSecret, type Secret } from '../models/secret.js';
import { parseBearerToken } from '../util/bearer.js';
import { sha256 } from '../util/bytes.js';
import { readHeader } from './body-hints.js';
import type { Principal } from './hooks.js';

const encoder = new TextEncoder();

/** The token of `Authorization: Bearer <token>` (scheme case-insensitive), or undefined. */
export function bearerToken(request: Request): string | undefined {
  return parseBearerToken(readHeader(request, 'authorization'));
}

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  let difference = a.length ^ b.length;
  for (let i = 0; i < a.length; i++) difference |= a[i]! ^ (b[i] ?? 0);
  return difference === 0;
}

/** Whether two tokens are equal, in time that depends on neither. */
export async function tokensEqual(given: string, expected: string | Secret): Promise<boolean> {
  const wanted = isSecret(expected) ? expected.reveal() : expected;
  const [a, b] = await Promise.all([sha256(encoder.encode(given)), sha256(encoder.encode(wanted))]);
  return sameBytes(a, b);
}

/**
 * An `authenticateInternalAPIClient` hook for one shared token (`MARKET_API_TOKEN`): requests
 * bearing it are `principal`, every other request is refused. An empty or missing token is a
 * start-up error, never "accept everybody".
 */
export function bearerAuth(
  token: string | Secret | undefined,
  principal: Principal = { id: 'market-system' },
): (request: Request) => Promise<Principal | null> {
  const expected = token === undefined ? '' : isSecret(token) ? token.reveal() : token;
  if (expected.trim() === '') {
    throw new KitError('misconfigured', 'bearerAuth needs a non-empty token (MARKET_API_TOKEN)');
  }
  const wanted = sha256(encoder.encode(expected));
  return async (request) => {
    const given = bearerToken(request);
    if (given === undefined) return null;
    const [a, b] = await Promise.all([sha256(encoder.encode(given)), wanted]);
    return sameBytes(a, b) ? { ...principal } : null;
  };
}

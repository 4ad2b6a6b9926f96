/**
 * The two authentication hooks, for real: the market's own systems present
 * `Authorization: Bearer $MARKET_API_TOKEN` (compared in constant time), end users present a
 * session token that the store knows (only its SHA-256 is stored).
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import { bearerToken, type Principal, type Secret } from '@bnpl-kit/core';
import type { Store } from '@bnpl-kit/store';

// Core's one Bearer parser; re-exported for the app's own routes.
export { bearerToken };

/** Constant-time equality: both sides are hashed first, so neither length nor content leaks. */
export function sameSecret(given: string, expected: string): boolean {
  const a = createHash('sha256').update(given, 'utf8').digest();
  const b = createHash('sha256').update(expected, 'utf8').digest();
  return timingSafeEqual(a, b);
}

export function authenticateMarketSystem(marketApiToken: Secret) {
  return async (request: Request): Promise<Principal | null> => {
    const token = bearerToken(request);
    return token !== undefined && sameSecret(token, marketApiToken.reveal()) ? { id: 'market-system' } : null;
  };
}

export function authenticateSessionUser(store: Pick<Store, 'findUserBySessionToken'>) {
  return async (request: Request): Promise<Principal | null> => {
    const token = bearerToken(request);
    if (token === undefined) return null;
    const user = await store.findUserBySessionToken(token);
    return user ? { id: user.id } : null;
  };
}

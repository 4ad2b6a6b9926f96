/**
 * The link to `/bnpl/complete` is signed: `?order_id=…&sig=…`, an HMAC-SHA256 of the order ID under
 * a key derived from the server's MARKET_API_TOKEN. Only the market hands out such links (as its
 * BNPL callback, through the provider to the person who paid), so a page for an order whose link
 * the visitor was not given shows nothing, whether the order exists or not. Rotating
 * MARKET_API_TOKEN invalidates links already handed out, which only costs a person a stale page.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import type { Secret } from '@bnpl-kit/core';

export interface CompleteLinks {
  sign(orderId: string): string;
  verify(orderId: string, sig: string | null): boolean;
}

export function completeLinks(marketApiToken: Secret): CompleteLinks {
  // A key of its own: the token itself never signs anything a browser sees.
  const key = createHmac('sha256', marketApiToken.reveal())
    .update('bnpl-kit /bnpl/complete link v1')
    .digest();
  const sign = (orderId: string) => createHmac('sha256', key).update(orderId, 'utf8').digest('base64url');
  return {
    sign,
    verify(orderId, sig) {
      if (sig === null || !/^[A-Za-z0-9_-]{43}$/.test(sig)) return false;
      return timingSafeEqual(Buffer.from(sign(orderId)), Buffer.from(sig));
    },
  };
}

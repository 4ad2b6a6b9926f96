/**
 * The create request's fingerprint is stored with every order and compared on every replay of a
 * `reference_id`: the hash backend may change (native where the runtime has it, Web Crypto
 * elsewhere), the value must not, or every order stored before an upgrade would answer 409.
 */
import { describe, expect, it } from 'vitest';
import { canonicalJson } from '../src/claims/canonical.js';
import { requestFingerprint } from '../src/market/routes/orders.js';
import { orderCreateRequestCodec } from '../src/models/order.js';
import { orderFixture } from '../src/testing/orders.js';
import { base64UrlEncode } from '../src/util/base64url.js';

async function webCryptoFingerprint(wire: unknown): Promise<string> {
  const bytes = new TextEncoder().encode(canonicalJson(wire));
  return base64UrlEncode(new Uint8Array(await crypto.subtle.digest('SHA-256', bytes)));
}

describe('requestFingerprint', () => {
  const order = orderFixture();

  it('is base64url SHA-256 of the canonical wire JSON, as Web Crypto computes it', async () => {
    const expected = await webCryptoFingerprint(orderCreateRequestCodec.encode(order));
    expect(await requestFingerprint(order)).toBe(expected);
    expect(expected).toMatch(/^[A-Za-z0-9_-]{43}$/);
  });

  it('differs when the content differs', async () => {
    const other = { ...order, referenceId: `${order.referenceId}-2` };
    expect(await requestFingerprint(other)).not.toBe(await requestFingerprint(order));
  });
});

/**
 * Issue 10, reproduction 2 at the service client: IDs with characters above U+00FF went raw into
 * the Idempotency-Key header and fetch refused them (`Cannot convert argument to a ByteString`),
 * reported as `503 upstream_unavailable`. Every valid Unicode ID must now reach the service.
 */
import { describe, expect, it } from 'vitest';
import { createServiceClient } from '../src/index.js';
import { envelope, orderInput, orderService } from './service-support.js';

describe('Idempotency-Key from user data', () => {
  it('reaches the service for Vietnamese, CJK and emoji IDs, as an ASCII header', async () => {
    const credifyId = 'người-dùng-🛒';
    const s = orderService({
      [`PUT /v1/claim-providers/entities/${encodeURIComponent(credifyId)}/claims`]: () => envelope({}),
    });
    // The real fetch validates header values the same way `new Headers` does.
    const strict: typeof fetch = (input, init) => {
      new Headers(init?.headers);
      return s.fetch(input, init);
    };
    const real = createServiceClient({
      baseUrl: 'https://service.test',
      apiKey: 'key-123456',
      fetch: strict,
    });
    await real.createOrder({ ...orderInput, referenceId: 'đơn-hàng-1' });
    await real.pushClaimTokens(credifyId, ['jwt']);
    await real.disburseOrder('ord-1', {}, { idempotencyKey: 'giải-ngân-1' }).catch(() => undefined);
    const keys = s.seen.map((r) => r.headers.get('idempotency-key')).filter((k) => k !== null);
    expect(keys[0]).toBe('create-order:%C4%91%C6%A1n-h%C3%A0ng-1');
    expect(keys[1]).toMatch(/^push-claims:ng%C6%B0%E1%BB%9Di-d%C3%B9ng-%F0%9F%9B%92:[A-Za-z0-9_-]{22}$/);
    expect(keys[2]).toBe('gi%E1%BA%A3i-ng%C3%A2n-1');
  });
});

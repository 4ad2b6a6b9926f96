/**
 * The kit's one backoff policy: full jitter under a doubling, capped ceiling. The service client's
 * retries and the store's job retries both use it (their own tests check that they do).
 */
import { describe, expect, it } from 'vitest';
import { backoffCeilingMs, backoffDelayMs } from '../src/index.js';

const policy = { baseDelayMs: 1_000, maxDelayMs: 10_000 };

describe('backoff policy', () => {
  it('doubles the ceiling from the base and stops at the cap', () => {
    expect([0, 1, 2, 3, 4, 5, 60, 10_000].map((n) => backoffCeilingMs(policy, n))).toEqual([
      1_000, 2_000, 4_000, 8_000, 10_000, 10_000, 10_000, 10_000,
    ]);
  });

  it('draws the delay uniformly below the ceiling (full jitter)', () => {
    for (let retry = 0; retry < 8; retry++) {
      const ceiling = backoffCeilingMs(policy, retry);
      expect(backoffDelayMs(policy, retry, () => 0)).toBe(0);
      expect(backoffDelayMs(policy, retry, () => 0.5)).toBe(Math.floor(ceiling / 2));
      expect(backoffDelayMs(policy, retry, () => 0.999_999)).toBe(ceiling - 1);
    }
  });

  it('stays inside [0, ceiling) whatever the random source returns', () => {
    for (const value of [-1, 0, 0.25, 1, 2, Number.NaN]) {
      const delay = backoffDelayMs(policy, 3, () => value);
      expect(delay).toBeGreaterThanOrEqual(0);
      expect(delay).toBeLessThanOrEqual(backoffCeilingMs(policy, 3));
      expect(Number.isInteger(delay)).toBe(true);
    }
  });

  it('spreads callers that failed together', () => {
    let seed = 42;
    const random = () => {
      seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
      return seed / 2 ** 31;
    };
    const delays = new Set(Array.from({ length: 50 }, () => backoffDelayMs(policy, 4, random)));
    expect(delays.size).toBeGreaterThan(40);
  });
});

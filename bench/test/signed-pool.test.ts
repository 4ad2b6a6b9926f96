import { generateKeyPair } from '@bnpl-kit/core/testing';
import { describe, expect, it } from 'vitest';
import { SignedPool } from '../pg-fixture.js';

describe('SignedPool', () => {
  it('keeps its signatures while they stay valid long enough, and re-signs the same events when not', async () => {
    const keys = await generateKeyPair();
    const signed = new SignedPool(keys.seed, 4, 2);
    const first = await signed.current(60_000);
    expect(await signed.current(60_000)).toBe(first);
    // Signed 240 s ahead with a ±300 s window: good for 540 s, not for 10 min.
    const again = await signed.current(600_000);
    expect(again).not.toBe(first);
    expect(again.map((r) => [r.eventId, r.orderId, r.body.toString()])).toEqual(
      first.map((r) => [r.eventId, r.orderId, r.body.toString()]),
    );
  });
});

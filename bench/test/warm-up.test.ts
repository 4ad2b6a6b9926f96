import { describe, expect, it } from 'vitest';
import { rampOver, type WarmUp } from '../warm-up.js';

const WARMUP: WarmUp = { sliceSeconds: 1, minSeconds: 2, maxSeconds: 10 };

describe('rampOver', () => {
  it('keeps warming while each slice is clearly faster than every slice before it', () => {
    // A fresh hooked-webhook server on a slow machine, 1 s slices (measured, rounded).
    const ramp = [495, 695, 792, 973, 1220, 1308];
    for (let n = 1; n <= ramp.length; n++) expect(rampOver(ramp.slice(0, n), WARMUP)).toBe(false);
    expect(rampOver([...ramp, 1316], WARMUP)).toBe(true);
  });

  it('stops at the first slice no more than 5 % faster than the best before it, slower ones too', () => {
    expect(rampOver([1000, 1050], WARMUP)).toBe(true);
    expect(rampOver([1000, 1051], WARMUP)).toBe(false);
    expect(rampOver([1000, 700], WARMUP)).toBe(true);
  });

  it('compares with the best slice so far, not only the one just before', () => {
    // A dip then a partial recovery is not a new high: the ramp was over at the dip already.
    expect(rampOver([900, 1200, 800, 1100], WARMUP)).toBe(true);
    expect(rampOver([900, 1200, 800, 1300], WARMUP)).toBe(false);
  });

  it('never stops before the minimum warm-up, however flat the rate', () => {
    expect(rampOver([1000], WARMUP)).toBe(false);
    expect(rampOver([1000, 1000], { ...WARMUP, minSeconds: 3 })).toBe(false);
    expect(rampOver([1000, 1000, 1000], { ...WARMUP, minSeconds: 3 })).toBe(true);
  });
});

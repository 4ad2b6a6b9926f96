/**
 * When a server child is warm enough to measure. A fresh child is slow at first: V8 has not
 * optimised its hot path yet and its database connections are new. On a slow 2-core machine the
 * rate kept rising for 4–6 s (every candidate, the hand-written baselines too), so a fixed 1 s
 * warm-up put that ramp into the measured window, where the first burst of requests on a still
 * cold server set the p99. The warm-up loads in slices instead, until the ramp is over.
 */
export interface WarmUp {
  sliceSeconds: number;
  minSeconds: number;
  maxSeconds: number;
}

/** A slice at most this much faster than the best slice before it means the ramp is over. */
export const STEADY_RISE = 0.05;

/**
 * Whether the warm-up can stop after these slices (requests per second, oldest first): at least
 * `minSeconds` loaded and the newest slice no more than `STEADY_RISE` faster than the best before it.
 */
export function rampOver(sliceRates: readonly number[], warmup: WarmUp): boolean {
  if (sliceRates.length * warmup.sliceSeconds < warmup.minSeconds) return false;
  const newest = sliceRates[sliceRates.length - 1]!;
  const bestBefore = Math.max(...sliceRates.slice(0, -1));
  return newest <= bestBefore * (1 + STEADY_RISE);
}

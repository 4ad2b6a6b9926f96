/**
 * The kit's one backoff policy, shared by the service client's retries and the store's job retries:
 * exponential with "full jitter" (AWS architecture blog, "Exponential Backoff And Jitter"). The
 * delay before retry n (0 for the first retry) is uniform in [0, min(max, base·2^n)), so callers
 * that failed together (a service outage, many jobs) do not all come back at the same moment.
 */

export interface BackoffPolicy {
  /** Ceiling of the first retry's delay; the ceiling doubles with each further retry. */
  baseDelayMs: number;
  /** Upper bound of the ceiling. */
  maxDelayMs: number;
}

/** Largest exponent used: 2^40 already exceeds any sensible cap, and keeps the number finite. */
const MAX_EXPONENT = 40;

/** The ceiling of retry `retry` (0-based): base·2^retry, capped at `maxDelayMs`. */
export function backoffCeilingMs(policy: BackoffPolicy, retry: number): number {
  const exponent = Math.min(MAX_EXPONENT, Math.max(0, Math.floor(retry)));
  return Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** exponent);
}

/**
 * The delay before retry `retry` (0-based), in whole milliseconds: `random()` (in [0, 1)) scaled to
 * the ceiling. Pass a fixed `random` to get a predictable schedule (tests).
 */
export function backoffDelayMs(
  policy: BackoffPolicy,
  retry: number,
  random: () => number = Math.random,
): number {
  const drawn = random();
  // A random source outside [0, 1) (a bad test double) still yields a delay inside the range.
  const fraction = Number.isFinite(drawn) ? Math.min(Math.max(drawn, 0), 1) : 0;
  const ceiling = backoffCeilingMs(policy, retry);
  return Math.max(0, Math.min(Math.floor(fraction * ceiling), ceiling - 1));
}

import type { JobRetryPolicy } from '../../records.js';

export const DEFAULT_JOB_RETRY: JobRetryPolicy = { baseDelayMs: 1_000, maxDelayMs: 10 * 60_000 };

/** Exponential backoff: base × 2^(attempts−1), capped. No jitter, so the schedule is predictable. */
export function jobBackoffMs(attempts: number, policy: JobRetryPolicy = DEFAULT_JOB_RETRY): number {
  const exponent = Math.max(0, attempts - 1);
  return Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** Math.min(exponent, 40));
}

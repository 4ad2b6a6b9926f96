/** A failed job's delay before its next attempt: the kit's one backoff policy (core, full jitter). */
import { backoffDelayMs } from '@bnpl-kit/core';
import type { JobRetryPolicy } from '../../records.js';

export const DEFAULT_JOB_RETRY: JobRetryPolicy = { baseDelayMs: 1_000, maxDelayMs: 10 * 60_000 };

/** After attempt `attempts` (1 for the first) failed: the delay of retry `attempts − 1`. */
export function jobBackoffMs(attempts: number, policy: JobRetryPolicy = DEFAULT_JOB_RETRY): number {
  return backoffDelayMs(policy, attempts - 1, policy.random);
}

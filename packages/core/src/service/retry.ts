/**
 * Retries with jittered exponential backoff, for idempotent operations only: a mutating call that
 * timed out may have been applied, so it is handed back to the caller, who repeats it knowingly
 * with the same Idempotency-Key.
 */
import { isRetryable } from './errors.js';

export interface RetryPolicy {
  /** Extra attempts after the first. */
  retries: number;
  baseDelayMs: number;
  maxDelayMs: number;
  random: () => number;
  sleep: (ms: number, signal?: AbortSignal) => Promise<void>;
}

/** "Full jitter" (AWS architecture blog): a uniform delay in [0, min(max, base·2^n)). */
function backoffDelay(policy: RetryPolicy, attempt: number): number {
  const ceiling = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** attempt);
  return Math.floor(policy.random() * ceiling);
}

export async function withRetries<T>(
  policy: RetryPolicy,
  idempotent: boolean,
  signal: AbortSignal | undefined,
  run: () => Promise<T>,
): Promise<T> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await run();
    } catch (error) {
      if (!idempotent || attempt >= policy.retries || !isRetryable(error) || signal?.aborted) throw error;
      await policy.sleep(backoffDelay(policy, attempt), signal);
    }
  }
}

export function defaultSleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

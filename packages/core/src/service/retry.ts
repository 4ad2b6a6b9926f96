/**
 * Retries with the kit's backoff policy (`util/backoff.ts`, full jitter), for idempotent operations only: a mutating call that
 * timed out may have been applied, so it is handed back to the caller, who repeats it knowingly
 * with the same Idempotency-Key.
 */
import { type BackoffPolicy, backoffDelayMs } from '../util/backoff.js';
import { isRetryable } from './errors.js';

export interface RetryPolicy extends BackoffPolicy {
  /** Extra attempts after the first. */
  retries: number;
  random: () => number;
  sleep: (ms: number, signal?: AbortSignal) => Promise<void>;
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
      await policy.sleep(backoffDelayMs(policy, attempt, policy.random), signal);
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

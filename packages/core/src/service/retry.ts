/**
 * Retries with the kit's backoff policy (`util/backoff.ts`, full jitter).
 *
 * - A call that only reads is repeated on any failure that answered nothing reliably
 *   (`isRetryable`: no connection, a timeout, a 5xx).
 * - A mutating call carries its `Idempotency-Key` (WIRE §6, R-SVC-05), so a repeat is safe at the
 *   service, but it is repeated only when the connection failed without an answer
 *   (`isConnectionFailure`). That is the failure of a pooled keep-alive socket the service closed as
 *   it was reused (Bun's fetch and Node's keep-alive agents meet it under load), and it fails fast.
 *   A mutating call that timed out or got a 5xx is handed back to the caller, who repeats it knowingly
 *   with the same key: another attempt would double the caller's wait (8 s each by default).
 */
import { type BackoffPolicy, backoffDelayMs } from '../util/backoff.js';
import { isConnectionFailure, isRetryable } from './errors.js';

export interface RetryPolicy extends BackoffPolicy {
  /** Extra attempts after the first. */
  retries: number;
  random: () => number;
  sleep: (ms: number, signal?: AbortSignal) => Promise<void>;
}

const never = () => false;

/**
 * Which failures of a call are worth another attempt: by whether the call only reads, or else
 * carries an `Idempotency-Key` (a mutating call without one is never repeated).
 */
export function retryableFor(call: { idempotent: boolean; keyed: boolean }): (error: unknown) => boolean {
  if (call.idempotent) return isRetryable;
  return call.keyed ? isConnectionFailure : never;
}

export async function withRetries<T>(
  policy: RetryPolicy,
  retryable: (error: unknown) => boolean,
  signal: AbortSignal | undefined,
  run: () => Promise<T>,
): Promise<T> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await run();
    } catch (error) {
      if (attempt >= policy.retries || !retryable(error) || signal?.aborted) throw error;
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

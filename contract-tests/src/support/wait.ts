/** Waiting for a market to come up; the polling itself is `@bnpl-kit/core/testing`'s. */
import { pollUntil } from '@bnpl-kit/core/testing';

/**
 * Waits until something answers HTTP at `url` (any status: a 404 still proves the market is up).
 * Returns the status of the first answer.
 */
export function waitForHttp(
  url: string,
  options: { timeoutMs: number; fetch?: typeof fetch; what?: string },
): Promise<number> {
  const doFetch = options.fetch ?? ((input, init) => fetch(input, init));
  return pollUntil(
    async () => {
      const response = await doFetch(url, { signal: AbortSignal.timeout(2000) });
      await response.body?.cancel();
      return response.status;
    },
    { timeoutMs: options.timeoutMs, intervalMs: 100, what: options.what ?? `an HTTP answer from ${url}` },
  );
}

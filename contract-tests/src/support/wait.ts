/** Waiting for a market to come up; the polling itself is `@bnpl-kit/core/testing`'s. */
import { pollUntil } from '@bnpl-kit/core/testing';
import { ephemeralPortHint } from '../ephemeral-ports.js';

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
  ).catch((error: unknown) => {
    // Name the likeliest cause when the port is one a client socket can hold.
    const hint = ephemeralPortHint(url);
    if (!hint || !(error instanceof Error)) throw error;
    error.message = `${error.message}. ${hint}`;
    throw error;
  });
}

/**
 * How long a check waits for an effect a correct market produces by itself after it has answered,
 * such as a disbursement after readiness or after a 2xx to disburse: the market may do it from a
 * worker that is backing off after an error, on a machine whose cores are busy with other work.
 * The wait polls, so a correct market ends it as soon as the effect shows; only a market that
 * never produces it waits this long. One budget for every such wait, so none is tighter than a
 * loaded machine needs (a 5 s one was).
 */
export const MARKET_EFFECT_WAIT_MS = 15_000;

/**
 * One HTTP attempt of a delivery: POST the signed request, wait at most the attempt timeout (on the
 * sandbox clock, so a manual clock decides when it fires) for the status and the body, and record
 * the outcome on the attempt.
 */
import type { Clock, TimerHandle } from '../clock.js';
import type { Delivery, DeliveryAttempt } from './types.js';

class AttemptTimeout extends Error {}

export interface PostDeps {
  clock: Clock;
  fetch: typeof fetch;
  timeoutMs: number;
  /** Called when the market answers (status line), so the sender can tell waiting from working. */
  onAnswer: () => void;
}

export async function postAttempt(
  deps: PostDeps,
  delivery: Delivery,
  attempt: DeliveryAttempt,
): Promise<void> {
  const { clock } = deps;
  let timer: TimerHandle | undefined;
  const controller = new AbortController();
  // Raced as well as signalled: an injected fetch may ignore the signal.
  const timedOut = new Promise<never>((_, reject) => {
    timer = clock.setTimeout(() => {
      const error = new AttemptTimeout(`no answer within ${deps.timeoutMs} ms`);
      controller.abort(error);
      reject(error);
    }, deps.timeoutMs);
  });
  timedOut.catch(() => {});
  try {
    const response = await Promise.race([
      deps.fetch(delivery.url, {
        method: 'POST',
        headers: attempt.requestHeaders,
        body: delivery.body,
        signal: controller.signal,
      }),
      timedOut,
    ]);
    deps.onAnswer();
    attempt.responseStatus = response.status;
    attempt.responseBody = (await Promise.race([response.text(), timedOut])).slice(0, 500);
    attempt.outcome = response.ok ? 'success' : 'http_error';
  } catch (error) {
    attempt.outcome =
      error instanceof AttemptTimeout || controller.signal.aborted ? 'timeout' : 'network_error';
    attempt.error = error instanceof Error ? error.message : String(error);
  } finally {
    clock.clearTimeout(timer);
    attempt.finishedAt = clock.now();
  }
}

/**
 * Bounded polling: tests wait for a condition (a webhook answered, a job done, a server up), never
 * for a fixed time. It returns as soon as the condition holds and gives up at a deadline with a
 * message that says what it was waiting for.
 */

export interface PollOptions {
  timeoutMs: number;
  /** Pause between attempts; default 20 ms, growing to 250 ms. */
  intervalMs?: number;
  /** For the timeout message: "the APPROVED delivery of ord_1 to be answered". */
  what: string;
}

export class PollTimeout extends Error {
  constructor(what: string, timeoutMs: number, last: unknown) {
    const tail = last instanceof Error ? ` (last error: ${last.message})` : '';
    super(`Gave up after ${timeoutMs} ms waiting for ${what}${tail}`);
    this.name = 'PollTimeout';
  }
}

/** Calls `attempt` until it returns something other than undefined; errors count as "not yet". */
export async function pollUntil<T>(attempt: () => Promise<T | undefined>, options: PollOptions): Promise<T> {
  const deadline = Date.now() + options.timeoutMs;
  let interval = options.intervalMs ?? 20;
  let lastError: unknown;
  for (;;) {
    try {
      const value = await attempt();
      if (value !== undefined) return value;
    } catch (error) {
      lastError = error;
    }
    const left = deadline - Date.now();
    if (left <= 0) throw new PollTimeout(options.what, options.timeoutMs, lastError);
    await new Promise((resolve) => setTimeout(resolve, Math.min(interval, left)));
    interval = Math.min(interval * 2, 250);
  }
}

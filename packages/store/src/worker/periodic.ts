/**
 * Periodic jobs on the job table: time is cut into periods of `everyMs` (counted from the epoch),
 * and each period gets one job whose dedupe key names the period. Every worker on the database
 * tries to enqueue it; the unique dedupe key lets exactly one insert win, and the claim's SKIP
 * LOCKED lets exactly one worker run it. A process enqueues each period at most once itself.
 */
import type { MarketLogger } from '@bnpl-kit/core';
import type { Store } from '../store.js';

export interface PeriodicJob {
  kind: string;
  /** Length of a period; one run per period across all processes. */
  everyMs: number;
}

/** The dedupe key of `kind`'s run for the period starting at `periodStart`. */
export function periodicDedupeKey(kind: string, periodStart: Date): string {
  return `${kind}@${periodStart.toISOString()}`;
}

export function periodicScheduler(input: {
  store: Pick<Store, 'enqueueJob'>;
  jobs: readonly PeriodicJob[];
  now: () => Date;
  logger: MarketLogger;
}) {
  const { store, jobs, now, logger } = input;
  for (const job of jobs) {
    if (!(Number.isFinite(job.everyMs) && job.everyMs > 0)) {
      throw new TypeError(`everyMs of periodic job ${job.kind} must be a positive number`);
    }
  }
  /** Start of the next period each kind still has to enqueue, in ms since the epoch. */
  const next = new Map<string, number>();
  return {
    /** Enqueues the current period's job of every kind whose period started since the last call. */
    async enqueueDue(): Promise<void> {
      const at = now().getTime();
      for (const job of jobs) {
        if (at < (next.get(job.kind) ?? Number.NEGATIVE_INFINITY)) continue;
        const start = Math.floor(at / job.everyMs) * job.everyMs;
        try {
          await store.enqueueJob({
            kind: job.kind,
            payload: {},
            dedupeKey: periodicDedupeKey(job.kind, new Date(start)),
            runAt: new Date(start),
            // A run that fails is not retried: the next period's run does the same work.
            maxAttempts: 1,
          });
          next.set(job.kind, start + job.everyMs);
        } catch (error) {
          logger.warn({ kind: job.kind, err: error }, 'could not enqueue a periodic job; trying again');
        }
      }
    },
  };
}

/**
 * Retention: a periodic job deletes finished jobs (and failed periodic runs) and processed webhook
 * event IDs older than a window. An event ID must be remembered for as long as the service may deliver that event again,
 * or a late redelivery would run its effect a second time; so the window must be longer than the
 * webhook replay window, and a shorter one is refused at start-up.
 */
import { KitError, type MarketLogger } from '@bnpl-kit/core';
import { WEBHOOK_ATTEMPT_TIMEOUT_MS, WEBHOOK_REDELIVERY_SCHEDULE_MS } from '@bnpl-kit/core/wire';
import type { Job } from '../records.js';
import type { PruneResult } from '../repositories/retention.js';
import type { Store } from '../store.js';

export const PRUNE_JOB = 'prune';

const SECOND = 1_000;
const HOUR = 3_600 * SECOND;
const DAY = 24 * HOUR;

// The service's redelivery schedule (docs/protocol.md §4, sender rules), from core: the sandbox's
// sender follows the same one.
export { WEBHOOK_REDELIVERY_SCHEDULE_MS };

/**
 * How long after its first delivery an event can still arrive and be accepted: the whole
 * redelivery schedule plus the last attempt's timeout, plus the signature timestamp tolerance.
 */
export function webhookReplayWindowMs(toleranceSeconds = 300): number {
  const schedule = WEBHOOK_REDELIVERY_SCHEDULE_MS.reduce((sum, delay) => sum + delay, 0);
  return schedule + WEBHOOK_ATTEMPT_TIMEOUT_MS + toleranceSeconds * SECOND;
}

export interface RetentionOptions {
  /** Finished jobs and processed event IDs are deleted this long after they were last touched. Default 7 days. */
  afterMs?: number;
  /** How often a pruning run starts (one across all processes). Default 1 h. */
  everyMs?: number;
  /**
   * The market's `webhookToleranceSeconds` (default 300): part of the replay window the retention
   * must exceed.
   */
  webhookToleranceSeconds?: number;
}

export const DEFAULT_RETENTION = { afterMs: 7 * DAY, everyMs: HOUR } as const;

/** The retention window to use; refuses one not longer than the webhook replay window. */
export function retentionWindowMs(options: RetentionOptions = {}): number {
  const afterMs = options.afterMs ?? DEFAULT_RETENTION.afterMs;
  const replayMs = webhookReplayWindowMs(options.webhookToleranceSeconds);
  if (!(Number.isFinite(afterMs) && afterMs > replayMs)) {
    throw new KitError(
      'misconfigured',
      `The retention window (${afterMs} ms) must be longer than the webhook replay window (${replayMs} ms: ` +
        'the service redelivers an event for that long, and a forgotten event ID would be applied again)',
    );
  }
  return afterMs;
}

/**
 * One pruning run. `periodicKinds`: the worker's periodic job kinds, whose failed runs are pruned
 * too (the next period's run does their work; nobody requeues them).
 */
export async function runRetention(
  deps: { store: Pick<Store, 'pruneFinished'>; logger: MarketLogger },
  afterMs: number,
  job: Pick<Job, 'id'>,
  periodicKinds: readonly string[] = [],
): Promise<PruneResult> {
  const pruned = await deps.store.pruneFinished(afterMs, { failedKinds: periodicKinds });
  if (pruned.jobs > 0 || pruned.events > 0) {
    deps.logger.info({ jobId: job.id, ...pruned, afterMs }, 'pruned finished jobs and processed event IDs');
  }
  return pruned;
}

/**
 * Retention: finished jobs (`done`) and processed webhook event IDs older than a window are
 * deleted, in batches so that each statement stays short on a busy table. Failed jobs are kept:
 * they wait for a person (`bnpl-kit jobs list --status failed`, then `requeue`); except the failed
 * runs of periodic jobs (`failedKinds`), which the next period's run replaces, so nobody requeues
 * them and they would otherwise pile up.
 */
import type { Queryable } from '../executor/types.js';
import { type JobContext, nowParam } from './jobs/context.js';

export interface PruneResult {
  jobs: number;
  events: number;
}

const BATCH = 1_000;

async function deleteInBatches(q: Queryable, sql: string, params: unknown[]): Promise<number> {
  let total = 0;
  for (;;) {
    const { rowCount } = await q.query(sql, params);
    total += rowCount;
    if (rowCount < BATCH) return total;
  }
}

export interface PruneOptions {
  /** Kinds whose failed jobs are pruned like done ones (the periodic kinds: reconcile, prune). */
  failedKinds?: readonly string[];
}

/**
 * Deletes done jobs (and failed ones of `failedKinds`) and processed event IDs last touched more
 * than `olderThanMs` ago.
 */
export async function pruneFinished(
  q: Queryable,
  ctx: JobContext,
  olderThanMs: number,
  options: PruneOptions = {},
): Promise<PruneResult> {
  const params = [nowParam(ctx), olderThanMs, BATCH];
  const cutoff = `coalesce($1::timestamptz, now()) - $2::double precision * interval '1 millisecond'`;
  const jobs = await deleteInBatches(
    q,
    `DELETE FROM bnpl_jobs WHERE id IN (
       SELECT id FROM bnpl_jobs
        WHERE (status = 'done' OR (status = 'failed' AND kind = ANY($4::text[])))
          AND updated_at < ${cutoff}
        LIMIT $3::int
     )`,
    [...params, [...(options.failedKinds ?? [])]],
  );
  const events = await deleteInBatches(
    q,
    `DELETE FROM bnpl_processed_events WHERE event_id IN (
       SELECT event_id FROM bnpl_processed_events WHERE processed_at < ${cutoff} LIMIT $3::int
     )`,
    params,
  );
  return { jobs, events };
}

/** The end of an attempt: done, or failed and either rescheduled with backoff or given up. */
import type { Queryable } from '../../executor/types.js';
import type { FailJobOptions, Job } from '../../records.js';
import { jobBackoffMs } from './backoff.js';
import { type JobContext, nowParam } from './context.js';
import { findJobBy } from './reads.js';
import { firstJob, type JobRow, jobColumns } from './rows.js';

const MAX_ERROR_LENGTH = 2_000;

function errorText(error: unknown): string {
  const text = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  return text.length > MAX_ERROR_LENGTH ? `${text.slice(0, MAX_ERROR_LENGTH)}…` : text;
}

/**
 * Marks a running job done. Its `last_error` stays: the error of its last failed attempt, which is
 * what an operator looks for when a job succeeded only after retries (null when it never failed).
 * False when it is not running (or, with `workerId`, no longer ours).
 */
export async function completeJob(
  q: Queryable,
  ctx: JobContext,
  id: string,
  options: { workerId?: string } = {},
): Promise<boolean> {
  const { rowCount } = await q.query(
    `UPDATE bnpl_jobs
        SET status = 'done', locked_until = NULL, updated_at = coalesce($3::timestamptz, now())
      WHERE id = $1 AND status = 'running' AND ($2::text IS NULL OR locked_by = $2)`,
    [id, options.workerId ?? null, nowParam(ctx)],
  );
  return rowCount > 0;
}

/**
 * Records a failed attempt: back to pending with a later `run_at`, or `failed` when `giveUp` is
 * set or the attempts are used up. Undefined when the job is not running (or not ours).
 */
export async function failJob<P>(
  q: Queryable,
  ctx: JobContext,
  id: string,
  error: unknown,
  options: FailJobOptions = {},
): Promise<Job<P> | undefined> {
  const current = await findJobBy<P>(q, 'id', id);
  if (current === undefined || current.status !== 'running') return undefined;
  if (options.workerId !== undefined && current.lockedBy !== options.workerId) return undefined;
  const giveUp = options.giveUp === true || current.attempts >= current.maxAttempts;
  const delayMs = options.retryInMs ?? jobBackoffMs(current.attempts, ctx.retry);
  // The guard on attempts/locked_by makes this a no-op if another worker took the job over
  // between the read above and this write.
  const { rows } = await q.query<JobRow>(
    `WITH clock AS (SELECT coalesce($1::timestamptz, now()) AS t)
     UPDATE bnpl_jobs j
        SET status = CASE WHEN $2::boolean THEN 'failed' ELSE 'pending' END,
            run_at = CASE WHEN $2::boolean THEN j.run_at
                          ELSE coalesce($3::timestamptz, clock.t + $4::double precision * interval '1 millisecond') END,
            locked_until = NULL, last_error = $5, updated_at = clock.t
       FROM clock
      WHERE j.id = $6 AND j.status = 'running' AND j.attempts = $7 AND j.locked_by IS NOT DISTINCT FROM $8
     RETURNING ${jobColumns('j')}`,
    [
      nowParam(ctx),
      giveUp,
      options.retryAt ?? null,
      delayMs,
      errorText(error),
      id,
      current.attempts,
      current.lockedBy ?? null,
    ],
  );
  return firstJob<P>(rows);
}

/**
 * Requeueing by hand (`bnpl-kit jobs requeue`, the worker's inspect API): a failed job, or a
 * pending one waiting for its backoff, becomes due now with its attempts counted from zero again.
 * A running job is left alone (its worker holds the lease) and a done one is not run twice.
 */
import type { Queryable } from '../../executor/types.js';
import type { Job, JobStatus } from '../../records.js';
import { type JobContext, nowParam } from './context.js';
import { findJobBy } from './reads.js';
import { firstJob, JOB_COLUMNS, type JobRow } from './rows.js';

export const REQUEUEABLE: readonly JobStatus[] = ['failed', 'pending'];

export interface RequeueResult<P = unknown> {
  /** The job afterwards; undefined when no job has this ID. */
  job: Job<P> | undefined;
  /** False when the job's status does not allow it (running or done): nothing changed. */
  requeued: boolean;
}

export async function requeueJob<P>(
  q: Queryable,
  ctx: JobContext,
  id: string,
  options: { runAt?: Date } = {},
): Promise<RequeueResult<P>> {
  const now = nowParam(ctx);
  const { rows } = await q.query<JobRow>(
    `UPDATE bnpl_jobs
        SET status = 'pending', attempts = 0, locked_until = NULL, locked_by = NULL,
            run_at = coalesce($2::timestamptz, $3::timestamptz, now()),
            updated_at = coalesce($3::timestamptz, now())
      WHERE id = $1 AND status = ANY($4::text[])
     RETURNING ${JOB_COLUMNS}`,
    [id, options.runAt ?? null, now, [...REQUEUEABLE]],
  );
  const requeued = firstJob<P>(rows);
  if (requeued !== undefined) return { job: requeued, requeued: true };
  return { job: await findJobBy<P>(q, 'id', id), requeued: false };
}

/** How many jobs are in each status, and when the oldest due one was due (queue depth and age). */
export interface JobCounts {
  byStatus: Record<JobStatus, number>;
  /** `run_at` of the oldest pending job that is due; undefined when none is. */
  oldestDueAt: Date | undefined;
}

export async function countJobs(q: Queryable, ctx: JobContext): Promise<JobCounts> {
  const { rows } = await q.query<{ status: JobStatus; n: string | number; oldest: Date | null }>(
    `SELECT status, count(*) AS n,
            min(run_at) FILTER (WHERE status = 'pending' AND run_at <= coalesce($1::timestamptz, now())) AS oldest
       FROM bnpl_jobs GROUP BY status`,
    [nowParam(ctx)],
  );
  const byStatus: Record<JobStatus, number> = { pending: 0, running: 0, done: 0, failed: 0 };
  let oldestDueAt: Date | undefined;
  for (const row of rows) {
    byStatus[row.status] = Number(row.n);
    if (row.oldest !== null) oldestDueAt = row.oldest;
  }
  return { byStatus, oldestDueAt };
}

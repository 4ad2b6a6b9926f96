import { KitError } from '@bnpl-kit/core';
import type { Queryable } from '../../executor/types.js';
import type { Job, NewJob } from '../../records.js';
import { type JobContext, nowParam } from './context.js';
import { findJobBy } from './reads.js';
import { JOB_COLUMNS, type JobRow, toJob } from './rows.js';

/** Inserts the job unless its dedupe key exists; then returns the existing job, `created: false`. */
export async function enqueueJob<P>(
  q: Queryable,
  ctx: JobContext,
  job: NewJob<P>,
): Promise<{ job: Job<P>; created: boolean }> {
  if (job.maxAttempts !== undefined && !(Number.isInteger(job.maxAttempts) && job.maxAttempts > 0)) {
    throw new KitError('validation_failed', 'maxAttempts must be a positive integer');
  }
  const now = nowParam(ctx);
  const { rows } = await q.query<JobRow>(
    `INSERT INTO bnpl_jobs (kind, payload, dedupe_key, run_at, max_attempts, created_at, updated_at)
     VALUES ($1, $2::jsonb, $3, coalesce($4::timestamptz, $5::timestamptz, now()), coalesce($6::int, 10),
             coalesce($5::timestamptz, now()), coalesce($5::timestamptz, now()))
     ON CONFLICT (dedupe_key) DO NOTHING
     RETURNING ${JOB_COLUMNS}`,
    [
      job.kind,
      JSON.stringify(job.payload ?? null),
      job.dedupeKey,
      job.runAt ?? null,
      now,
      job.maxAttempts ?? null,
    ],
  );
  if (rows[0] !== undefined) return { job: toJob<P>(rows[0]), created: true };
  const existing = await findJobBy<P>(q, 'dedupe_key', job.dedupeKey);
  if (existing === undefined)
    throw new KitError('internal', 'Job dedupe key conflicted but the job is not visible');
  return { job: existing, created: false };
}

/**
 * Claiming with leases: FOR UPDATE SKIP LOCKED, so workers in several processes never take the same
 * row, and the claimed job is held until `locked_until`. A worker that dies leaves its job `running`
 * with a lease that expires; the next claim after that takes it over (crash recovery).
 */
import { KitError } from '@bnpl-kit/core';
import type { Queryable } from '../../executor/types.js';
import type { ClaimJobOptions, Job, RenewJobLeaseOptions } from '../../records.js';
import { type JobContext, nowParam } from './context.js';
import { firstJob, type JobRow, jobColumns } from './rows.js';

/**
 * A job whose lease expired on its last allowed attempt most likely kills its worker (out of
 * memory, a crash): fail it instead of handing it out forever. SKIP LOCKED: workers sweeping at the
 * same time neither wait for nor deadlock with each other.
 */
async function failExpiredLastAttempts(q: Queryable, now: Date | null): Promise<void> {
  await q.query(
    `UPDATE bnpl_jobs
        SET status = 'failed', locked_until = NULL, updated_at = coalesce($1::timestamptz, now()),
            last_error = coalesce(last_error || '; ', '') || 'lease expired on the last attempt (worker died?)'
      WHERE id IN (
        SELECT id FROM bnpl_jobs
         WHERE status = 'running' AND locked_until < coalesce($1::timestamptz, now()) AND attempts >= max_attempts
         FOR UPDATE SKIP LOCKED
      )`,
    [now],
  );
}

/**
 * Claims the next due job (pending and due, or running with an expired lease), oldest due first:
 * marks it running, counts an attempt and leases it to `workerId` for `lockMs`. A job whose lease
 * expired on its last allowed attempt is marked failed instead.
 */
export async function claimNextJob<P>(
  q: Queryable,
  ctx: JobContext,
  workerId: string,
  options: ClaimJobOptions,
): Promise<Job<P> | undefined> {
  if (!(Number.isFinite(options.lockMs) && options.lockMs > 0)) {
    throw new KitError('validation_failed', 'lockMs must be a positive number of milliseconds');
  }
  const now = nowParam(ctx);
  await failExpiredLastAttempts(q, now);
  const { rows } = await q.query<JobRow>(
    `WITH clock AS (SELECT coalesce($1::timestamptz, now()) AS t),
     next AS (
       SELECT j.id FROM bnpl_jobs j, clock
        WHERE ((j.status = 'pending' AND j.run_at <= clock.t)
            OR (j.status = 'running' AND j.locked_until < clock.t AND j.attempts < j.max_attempts))
          AND ($2::text[] IS NULL OR j.kind = ANY($2::text[]))
        ORDER BY j.run_at, j.created_at, j.id
        LIMIT 1
        FOR UPDATE OF j SKIP LOCKED
     )
     UPDATE bnpl_jobs j
        SET status = 'running', attempts = j.attempts + 1, locked_by = $3,
            locked_until = clock.t + $4::double precision * interval '1 millisecond', updated_at = clock.t
       FROM next, clock
      WHERE j.id = next.id
     RETURNING ${jobColumns('j')}`,
    [now, options.kinds === undefined ? null : [...options.kinds], workerId, options.lockMs],
  );
  return firstJob<P>(rows);
}

/**
 * Extends the lease of a job this worker is running, from now by `lockMs`. False when the job is
 * no longer this claim's (finished, failed, or taken over after the lease expired): the worker
 * then stops the run (its signal aborts) instead of running it side by side with another.
 */
export async function renewJobLease(
  q: Queryable,
  ctx: JobContext,
  id: string,
  options: RenewJobLeaseOptions,
): Promise<boolean> {
  if (!(Number.isFinite(options.lockMs) && options.lockMs > 0)) {
    throw new KitError('validation_failed', 'lockMs must be a positive number of milliseconds');
  }
  const { rowCount } = await q.query(
    `UPDATE bnpl_jobs
        SET locked_until = coalesce($1::timestamptz, now()) + $2::double precision * interval '1 millisecond'
      WHERE id = $3 AND status = 'running' AND locked_by = $4 AND attempts = $5`,
    [nowParam(ctx), options.lockMs, id, options.workerId, options.attempt],
  );
  return rowCount > 0;
}

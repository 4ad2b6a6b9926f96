/**
 * The job table as an outbox with leases (claiming: `jobs/claim.ts`). Jobs run at least once: a
 * job's effect must be idempotent (the disbursement call carries an idempotency key). This module
 * binds the statements in `jobs/` to one queryable and one clock.
 */
import type { Queryable } from '../executor/types.js';
import type {
  ClaimJobOptions,
  FailJobOptions,
  Job,
  JobStatus,
  NewJob,
  RenewJobLeaseOptions,
} from '../records.js';
import { claimNextJob, renewJobLease } from './jobs/claim.js';
import type { JobContext } from './jobs/context.js';
import { enqueueJob } from './jobs/enqueue.js';
import { findJobBy, listJobs } from './jobs/reads.js';
import { countJobs, type JobCounts, type RequeueResult, requeueJob } from './jobs/requeue.js';
import { completeJob, failJob } from './jobs/settle.js';

export type { JobContext } from './jobs/context.js';
export type { JobCounts, RequeueResult } from './jobs/requeue.js';

export interface JobOps {
  /** Inserts the job unless its dedupe key exists; then returns the existing job, `created: false`. */
  enqueueJob<P>(job: NewJob<P>): Promise<{ job: Job<P>; created: boolean }>;
  /**
   * Claims the next due job (pending and due, or running with an expired lease), oldest due first:
   * marks it running, counts an attempt and leases it to `workerId` for `lockMs`. A job whose lease
   * expired on its last allowed attempt is marked failed instead.
   */
  claimNextJob<P = unknown>(workerId: string, options: ClaimJobOptions): Promise<Job<P> | undefined>;
  /**
   * Extends the lease of a job this claim is running, from now by `lockMs` (the worker does this
   * while the job runs). False when the job is no longer this claim's: finished, or taken over.
   */
  renewJobLease(id: string, options: RenewJobLeaseOptions): Promise<boolean>;
  /** Marks a running job done. False when it is not running (or, with `workerId`, no longer ours). */
  completeJob(id: string, options?: { workerId?: string }): Promise<boolean>;
  /**
   * Records a failed attempt: back to pending with a later `run_at`, or `failed` when `giveUp` is
   * set or the attempts are used up. Undefined when the job is not running (or not ours).
   */
  failJob<P = unknown>(id: string, error: unknown, options?: FailJobOptions): Promise<Job<P> | undefined>;
  findJob<P = unknown>(id: string): Promise<Job<P> | undefined>;
  findJobByDedupeKey<P = unknown>(dedupeKey: string): Promise<Job<P> | undefined>;
  /** Oldest first; at most `limit` (default all). */
  listJobs<P = unknown>(filter?: { kind?: string; status?: JobStatus; limit?: number }): Promise<Job<P>[]>;
  /**
   * A failed job, or a pending one waiting for its backoff, becomes due now (or at `runAt`) with
   * its attempts counted from zero. Running and done jobs are left as they are (`requeued: false`).
   */
  requeueJob<P = unknown>(id: string, options?: { runAt?: Date }): Promise<RequeueResult<P>>;
  /** Jobs per status and the oldest due one (queue depth and age). */
  countJobs(): Promise<JobCounts>;
}

export function jobOps(q: Queryable, ctx: JobContext): JobOps {
  return {
    enqueueJob: (job) => enqueueJob(q, ctx, job),
    claimNextJob: (workerId, options) => claimNextJob(q, ctx, workerId, options),
    renewJobLease: (id, options) => renewJobLease(q, ctx, id, options),
    completeJob: (id, options) => completeJob(q, ctx, id, options),
    failJob: (id, error, options) => failJob(q, ctx, id, error, options),
    findJob: (id) => findJobBy(q, 'id', id),
    findJobByDedupeKey: (dedupeKey) => findJobBy(q, 'dedupe_key', dedupeKey),
    listJobs: (filter) => listJobs(q, filter),
    requeueJob: (id, options) => requeueJob(q, ctx, id, options),
    countJobs: () => countJobs(q, ctx),
  };
}

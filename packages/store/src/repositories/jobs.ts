/**
 * The job table as an outbox with leases. A worker claims the next due job with
 * FOR UPDATE SKIP LOCKED, so workers in several processes never take the same row, and holds it
 * until `locked_until`. A worker that dies leaves its job `running` with a lease that expires; the
 * next claim after that takes it over (crash recovery). Jobs therefore run at least once: a job's
 * effect must be idempotent (the disbursement call carries an idempotency key).
 */
import { KitError } from '@bnpl-kit/core';
import type { Queryable } from '../executor/types.js';
import type { ClaimJobOptions, FailJobOptions, Job, JobRetryPolicy, JobStatus, NewJob } from '../records.js';

export const DEFAULT_JOB_RETRY: JobRetryPolicy = { baseDelayMs: 1_000, maxDelayMs: 10 * 60_000 };

/** Exponential backoff: base × 2^(attempts−1), capped. No jitter, so the schedule is predictable. */
export function jobBackoffMs(attempts: number, policy: JobRetryPolicy = DEFAULT_JOB_RETRY): number {
  const exponent = Math.max(0, attempts - 1);
  return Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** Math.min(exponent, 40));
}

export interface JobContext {
  /**
   * The clock for due times and leases. Undefined means the database's `now()`, which all
   * processes on one PostgreSQL share; tests inject a clock to move time without waiting.
   */
  now: (() => Date) | undefined;
  retry: JobRetryPolicy;
}

interface JobRow {
  id: string;
  kind: string;
  payload: unknown;
  dedupe_key: string;
  status: JobStatus;
  attempts: number;
  max_attempts: number;
  run_at: Date;
  locked_until: Date | null;
  locked_by: string | null;
  last_error: string | null;
  created_at: Date;
  updated_at: Date;
}

const JOB_FIELDS = [
  'id',
  'kind',
  'payload',
  'dedupe_key',
  'status',
  'attempts',
  'max_attempts',
  'run_at',
  'locked_until',
  'locked_by',
  'last_error',
  'created_at',
  'updated_at',
];
/** The column list, qualified with `alias.` for statements that join. */
const jobColumns = (alias?: string): string =>
  JOB_FIELDS.map((f) => (alias ? `${alias}.${f}` : f)).join(', ');
const JOB_COLUMNS = jobColumns();

function toJob<P>(row: JobRow): Job<P> {
  return {
    id: row.id,
    kind: row.kind,
    payload: row.payload as P,
    dedupeKey: row.dedupe_key,
    status: row.status,
    attempts: row.attempts,
    maxAttempts: row.max_attempts,
    runAt: row.run_at,
    lockedUntil: row.locked_until ?? undefined,
    lockedBy: row.locked_by ?? undefined,
    lastError: row.last_error ?? undefined,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

const MAX_ERROR_LENGTH = 2_000;

function errorText(error: unknown): string {
  const text = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  return text.length > MAX_ERROR_LENGTH ? `${text.slice(0, MAX_ERROR_LENGTH)}…` : text;
}

export interface JobOps {
  /** Inserts the job unless its dedupe key exists; then returns the existing job, `created: false`. */
  enqueueJob<P>(job: NewJob<P>): Promise<{ job: Job<P>; created: boolean }>;
  /**
   * Claims the next due job (pending and due, or running with an expired lease), oldest due first:
   * marks it running, counts an attempt and leases it to `workerId` for `lockMs`. A job whose lease
   * expired on its last allowed attempt is marked failed instead.
   */
  claimNextJob<P = unknown>(workerId: string, options: ClaimJobOptions): Promise<Job<P> | undefined>;
  /** Marks a running job done. False when it is not running (or, with `workerId`, no longer ours). */
  completeJob(id: string, options?: { workerId?: string }): Promise<boolean>;
  /**
   * Records a failed attempt: back to pending with a later `run_at`, or `failed` when `giveUp` is
   * set or the attempts are used up. Undefined when the job is not running (or not ours).
   */
  failJob<P = unknown>(id: string, error: unknown, options?: FailJobOptions): Promise<Job<P> | undefined>;
  findJob<P = unknown>(id: string): Promise<Job<P> | undefined>;
  findJobByDedupeKey<P = unknown>(dedupeKey: string): Promise<Job<P> | undefined>;
  /** Oldest first. */
  listJobs<P = unknown>(filter?: { kind?: string; status?: JobStatus }): Promise<Job<P>[]>;
}

export function jobOps(q: Queryable, ctx: JobContext): JobOps {
  // $now in every statement: the injected clock, or NULL so that SQL falls back to now().
  const nowParam = (): Date | null => ctx.now?.() ?? null;

  async function findBy<P>(column: string, value: string): Promise<Job<P> | undefined> {
    const { rows } = await q.query<JobRow>(`SELECT ${JOB_COLUMNS} FROM bnpl_jobs WHERE ${column} = $1`, [
      value,
    ]);
    return rows[0] === undefined ? undefined : toJob<P>(rows[0]);
  }

  return {
    async enqueueJob<P>(job: NewJob<P>) {
      if (job.maxAttempts !== undefined && !(Number.isInteger(job.maxAttempts) && job.maxAttempts > 0)) {
        throw new KitError('validation_failed', 'maxAttempts must be a positive integer');
      }
      const now = nowParam();
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
      const existing = await findBy<P>('dedupe_key', job.dedupeKey);
      if (existing === undefined)
        throw new KitError('internal', 'Job dedupe key conflicted but the job is not visible');
      return { job: existing, created: false };
    },

    async claimNextJob<P>(workerId: string, options: ClaimJobOptions) {
      if (!(Number.isFinite(options.lockMs) && options.lockMs > 0)) {
        throw new KitError('validation_failed', 'lockMs must be a positive number of milliseconds');
      }
      const now = nowParam();
      // A job whose lease expired on its last allowed attempt most likely kills its worker (out of
      // memory, a crash): fail it instead of handing it out forever. SKIP LOCKED: workers sweeping
      // at the same time neither wait for nor deadlock with each other.
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
      return rows[0] === undefined ? undefined : toJob<P>(rows[0]);
    },

    async completeJob(id, options = {}) {
      const { rowCount } = await q.query(
        `UPDATE bnpl_jobs
            SET status = 'done', locked_until = NULL, last_error = NULL, updated_at = coalesce($3::timestamptz, now())
          WHERE id = $1 AND status = 'running' AND ($2::text IS NULL OR locked_by = $2)`,
        [id, options.workerId ?? null, nowParam()],
      );
      return rowCount > 0;
    },

    async failJob<P>(id: string, error: unknown, options: FailJobOptions = {}) {
      const current = await findBy<P>('id', id);
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
          nowParam(),
          giveUp,
          options.retryAt ?? null,
          delayMs,
          errorText(error),
          id,
          current.attempts,
          current.lockedBy ?? null,
        ],
      );
      return rows[0] === undefined ? undefined : toJob<P>(rows[0]);
    },

    findJob: (id) => findBy('id', id),
    findJobByDedupeKey: (dedupeKey) => findBy('dedupe_key', dedupeKey),

    async listJobs<P>(filter: { kind?: string; status?: JobStatus } = {}) {
      const { rows } = await q.query<JobRow>(
        `SELECT ${JOB_COLUMNS} FROM bnpl_jobs
          WHERE ($1::text IS NULL OR kind = $1) AND ($2::text IS NULL OR status = $2)
          ORDER BY created_at, id`,
        [filter.kind ?? null, filter.status ?? null],
      );
      return rows.map((r) => toJob<P>(r));
    },
  };
}

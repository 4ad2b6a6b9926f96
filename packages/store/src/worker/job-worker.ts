/**
 * The job worker: poll loops over the store's job table. Each loop claims one job at a time (FOR
 * UPDATE SKIP LOCKED, so workers in several processes never run the same job), runs it and records
 * the outcome; a crash leaves the job leased, and once the lease expires any worker takes it over.
 * A failed attempt is retried after the kit's backoff (full jitter, `openStore({ jobRetry })`).
 * When there is nothing to do a loop waits, doubling the wait up to `maxIdleMs` (no busy loop);
 * `nudge()` cuts the wait short. Periodic jobs (reconciliation, retention) are enqueued once per
 * period for all processes together (`periodic.ts`) and then run like any other job.
 *
 * Leases: while a job runs, its lease is renewed every third of `leaseMs` (`renewJobLease`), so a
 * job that runs longer than its lease is not claimed again mid-run. When a renewal finds the job no
 * longer this claim's, or the database stays away past the lease's end, the job's `signal` aborts
 * (another worker may run it now) and the run counts as `lost`, never `done`.
 *
 * Draining (`stop`): no new claims; jobs in hand get until the deadline to finish, then their
 * `signal` aborts and `stop` returns without them (their lease expires and another worker retries).
 */
import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import { type MarketLogger, silentLogger, withSpan, withTraceIds } from '@bnpl-kit/core';
import type { Job } from '../records.js';
import type { Store } from '../store.js';
import { observeJobQueue, recordJobRun } from './metrics.js';
import { type PeriodicJob, periodicScheduler } from './periodic.js';

export interface JobRunContext {
  /**
   * Aborts when a drain's deadline passes with this job still running, or when its lease is lost
   * (another worker may be running it now): stop, and leave the effect to that run.
   */
  signal: AbortSignal;
  workerId: string;
}

export type JobRunner<P = never> = (job: Job<P>, context: JobRunContext) => Promise<void>;

/** A failure that another attempt cannot fix: the job is marked failed for a person to look at. */
export class PermanentJobFailure extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'PermanentJobFailure';
  }
}

export interface JobWorkerOptions {
  /** With `countJobs`, the queue depth and age gauges are observed while the worker runs. */
  store: Pick<Store, 'claimNextJob' | 'completeJob' | 'failJob' | 'enqueueJob'> &
    Partial<Pick<Store, 'countJobs' | 'renewJobLease'>>;
  /** Job kind → what runs it. */
  runners: Record<string, JobRunner>;
  /** Jobs enqueued once per period across every process on the database (reconciliation, retention). */
  periodic?: readonly PeriodicJob[];
  logger?: MarketLogger;
  /**
   * Lease of a claimed job; another worker takes over after it (crash recovery). Default 60 s
   * (`JOB_LEASE_MS`). Renewed while the job runs, so a job may run longer than this.
   */
  leaseMs?: number;
  /** How often a running job's lease is renewed. Default a third of `leaseMs`. */
  leaseRenewEveryMs?: number;
  /** Jobs run at the same time by this process. Default 2 (a long reconciliation does not hold up disbursements). */
  concurrency?: number;
  /** First wait after an empty poll. Default 100 ms. */
  minIdleMs?: number;
  /** Longest wait between polls. Default 2 s. */
  maxIdleMs?: number;
  /** Clock of the periodic schedule; pass the store's (`openStore({ now })`) in tests. */
  now?: () => Date;
  workerId?: string;
}

export type JobWorkerState = 'idle' | 'running' | 'draining' | 'stopped';

/** A claimed job's lease by default. */
export const DEFAULT_JOB_LEASE_MS = 60_000;
/** Renewals per lease: one that fails leaves two more chances before the lease ends. */
const LEASE_RENEWALS = 3;

/** How long `stop()` waits for the jobs in hand by default. */
export const DEFAULT_DRAIN_DEADLINE_MS = 10_000;

export interface StopOptions {
  /** How long jobs in hand may take to finish. Default 10 s. */
  deadlineMs?: number;
}

export interface JobWorker {
  readonly workerId: string;
  /** `idle` before `start`, `draining` while `stop` waits, `stopped` after it. */
  readonly state: JobWorkerState;
  start(): void;
  /** Poll now instead of after the current wait (e.g. right after a webhook enqueued a job). */
  nudge(): void;
  /**
   * Graceful drain: stops claiming, waits up to `deadlineMs` for the jobs in hand, then aborts
   * their signal. `drained` is false when some job was still running at the deadline. Idempotent.
   */
  stop(options?: StopOptions): Promise<{ drained: boolean }>;
}

function positive(name: string, value: number): number {
  if (!(Number.isFinite(value) && value > 0)) throw new TypeError(`${name} must be a positive number`);
  return value;
}

export function createJobWorker(options: JobWorkerOptions): JobWorker {
  const { store, runners } = options;
  const logger = withTraceIds(options.logger ?? silentLogger);
  const workerId = options.workerId ?? `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
  const leaseMs = positive('leaseMs', options.leaseMs ?? DEFAULT_JOB_LEASE_MS);
  const renewEveryMs = positive('leaseRenewEveryMs', options.leaseRenewEveryMs ?? leaseMs / LEASE_RENEWALS);
  const minIdleMs = positive('minIdleMs', options.minIdleMs ?? 100);
  const maxIdleMs = Math.max(minIdleMs, options.maxIdleMs ?? 2_000);
  const concurrency = Math.floor(positive('concurrency', options.concurrency ?? 2));
  const periodic = options.periodic ?? [];
  for (const job of periodic) {
    if (runners[job.kind] === undefined) throw new TypeError(`periodic job ${job.kind} has no runner`);
  }
  const kinds = Object.keys(runners);
  const now = options.now ?? (() => new Date());
  const scheduler = periodicScheduler({ store, jobs: periodic, now, logger });
  let unobserveQueue: (() => void) | undefined;
  const abort = new AbortController();
  let state: JobWorkerState = 'idle';
  let loops: Promise<void> | undefined;
  let stopping: Promise<{ drained: boolean }> | undefined;
  const sleepers = new Set<() => void>();
  let nudged = 0;

  function wait(ms: number, seen: number): Promise<void> {
    if (nudged !== seen || state !== 'running') return Promise.resolve();
    return new Promise<void>((resolve) => {
      const timer = setTimeout(done, ms);
      function done() {
        clearTimeout(timer);
        sleepers.delete(done);
        resolve();
      }
      sleepers.add(done);
    });
  }

  function wakeAll() {
    for (const wake of [...sleepers]) wake();
  }

  /** The outcome of a run whose job is no longer this claim's: neither done nor failed by us. */
  function leaseLost(
    job: Job<unknown>,
    fields: Record<string, unknown>,
    span: { setAttribute(key: string, value: string): void },
    error?: unknown,
  ) {
    recordJobRun(job.kind, 'lost');
    span.setAttribute('bnpl.outcome', 'lost');
    logger.warn(
      { ...fields, leaseMs, ...(error === undefined ? {} : { err: error }) },
      'job lease lost; its outcome is not recorded (another worker may run it again)',
    );
  }

  /**
   * Renews `job`'s lease every `renewEveryMs` while it runs. Its signal aborts on the worker's
   * drain deadline and when the lease is lost: a renewal finds the job taken over or finished, or
   * renewals keep failing (database away) until the lease has ended by this worker's clock.
   */
  function holdLease(job: Job<unknown>) {
    const controller = new AbortController();
    const onStop = () => controller.abort(abort.signal.reason);
    if (abort.signal.aborted) onStop();
    else abort.signal.addEventListener('abort', onStop, { once: true });
    let expiresAt = now().getTime() + leaseMs;
    let timer: NodeJS.Timeout | undefined;
    let released = false;
    const hold = {
      signal: controller.signal,
      lost: false,
      release() {
        released = true;
        clearTimeout(timer);
        abort.signal.removeEventListener('abort', onStop);
      },
    };
    const lose = (reason: string) => {
      hold.lost = true;
      controller.abort(new Error(`the lease of job ${job.id} was lost: ${reason}`));
    };
    const renew = async () => {
      if (released || store.renewJobLease === undefined) return;
      const at = now().getTime();
      try {
        const held = await store.renewJobLease(job.id, { workerId, attempt: job.attempts, lockMs: leaseMs });
        if (released) return;
        if (!held) return lose('the job was taken over or finished elsewhere');
        expiresAt = at + leaseMs;
      } catch (error) {
        if (released) return;
        if (now().getTime() >= expiresAt) return lose('renewals failed until the lease ended');
        logger.warn(
          { jobId: job.id, kind: job.kind, workerId, err: error },
          'could not renew a job lease; retrying',
        );
      }
      schedule();
    };
    const schedule = () => {
      timer = setTimeout(() => void renew(), renewEveryMs);
      timer.unref?.();
    };
    schedule();
    return hold;
  }

  /** One job in its span (`bnpl.job <kind>`): the service calls it makes and its log lines join the trace. */
  function runOne(job: Job<unknown>): Promise<void> {
    const attributes = { 'bnpl.job_kind': job.kind, 'bnpl.job_id': job.id, 'bnpl.job_attempt': job.attempts };
    return withSpan(`bnpl.job ${job.kind}`, attributes, async (span) => {
      const runner = runners[job.kind]!;
      const fields = { jobId: job.id, kind: job.kind, attempt: job.attempts, workerId };
      const lease = holdLease(job);
      try {
        await runner(job as Job<never>, { signal: lease.signal, workerId });
        lease.release();
        if (lease.lost || !(await store.completeJob(job.id, { workerId }))) {
          leaseLost(job, fields, span);
          return;
        }
        recordJobRun(job.kind, 'done');
      } catch (error) {
        lease.release();
        const permanent = error instanceof PermanentJobFailure;
        const failed = lease.lost
          ? undefined
          : await store.failJob(job.id, error, { workerId, giveUp: permanent });
        if (failed === undefined) {
          leaseLost(job, fields, span, error);
          return;
        }
        const retry = failed.status === 'pending';
        recordJobRun(job.kind, retry ? 'retry' : 'failed');
        span.setAttribute('bnpl.outcome', retry ? 'retry' : 'failed');
        const level = permanent || failed.status === 'failed' ? 'error' : 'warn';
        logger[level](
          { ...fields, err: error, retryAt: retry ? failed.runAt : undefined },
          retry ? 'job failed; will retry' : 'job failed for good',
        );
      }
    });
  }

  async function pollLoop(): Promise<void> {
    let idleMs = minIdleMs;
    while (state === 'running') {
      const seen = nudged;
      let job: Job<unknown> | undefined;
      try {
        await scheduler.enqueueDue();
        job = await store.claimNextJob(workerId, { kinds, lockMs: leaseMs });
      } catch (error) {
        // The database may be restarting: keep polling, slower.
        logger.warn({ workerId, err: error }, 'could not poll for jobs');
      }
      if (job) {
        idleMs = minIdleMs;
        try {
          await runOne(job);
        } catch (error) {
          // Recording the outcome failed (database gone): the lease expires and the job is retried.
          logger.warn({ workerId, jobId: job.id, err: error }, 'could not record a job outcome');
        }
        continue;
      }
      await wait(idleMs, seen);
      idleMs = Math.min(maxIdleMs, idleMs * 2);
    }
  }

  async function drain(deadlineMs: number): Promise<{ drained: boolean }> {
    state = 'draining';
    wakeAll();
    let timer: NodeJS.Timeout | undefined;
    const deadline = new Promise<'deadline'>((resolve) => {
      timer = setTimeout(() => resolve('deadline'), deadlineMs);
    });
    const outcome = await Promise.race([loops ?? Promise.resolve(), deadline]);
    clearTimeout(timer);
    state = 'stopped';
    unobserveQueue?.();
    if (outcome !== 'deadline') return { drained: true };
    abort.abort(new Error('the worker is shutting down'));
    logger.warn(
      { workerId, deadlineMs },
      'jobs still running at the drain deadline; their leases will expire',
    );
    return { drained: false };
  }

  return {
    workerId,
    get state() {
      return state;
    },
    start() {
      if (state !== 'idle') return;
      state = 'running';
      const { countJobs } = store;
      if (countJobs) unobserveQueue = observeJobQueue({ countJobs: () => countJobs.call(store), now });
      loops = Promise.all(Array.from({ length: concurrency }, () => pollLoop())).then(() => {});
    },
    nudge() {
      nudged++;
      wakeAll();
    },
    stop(stopOptions = {}) {
      if (state === 'idle') {
        state = 'stopped';
        return Promise.resolve({ drained: true });
      }
      stopping ??= drain(positive('deadlineMs', stopOptions.deadlineMs ?? DEFAULT_DRAIN_DEADLINE_MS));
      return stopping;
    },
  };
}

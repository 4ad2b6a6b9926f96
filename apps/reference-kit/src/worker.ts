/**
 * The job worker: a poll loop over the store's job table. It claims one job at a time (FOR UPDATE
 * SKIP LOCKED, so workers in several processes never run the same job), runs it, and records the
 * outcome; a crash leaves the job leased, and once the lease expires any worker takes it over.
 * When there is nothing to do it waits, doubling the wait up to `maxIdleMs` (no busy loop), and
 * `nudge()` cuts the wait short when this process has just enqueued something.
 */
import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import type { MarketLogger } from '@bnpl-kit/core';
import type { Job, Store } from '@bnpl-kit/store';
import { PermanentJobFailure } from './disbursement.js';

export type JobRunner = (job: Job<never>) => Promise<void>;

export interface JobWorkerOptions {
  store: Store;
  /** Job kind → what runs it. */
  runners: Record<string, JobRunner>;
  logger: MarketLogger;
  /** Lease of a claimed job; another worker takes over after it (crash recovery). Default 60 s. */
  leaseMs?: number;
  /** First wait after an empty poll. Default 100 ms. */
  minIdleMs?: number;
  /** Longest wait between polls. Default 2 s. */
  maxIdleMs?: number;
  workerId?: string;
}

export interface JobWorker {
  readonly workerId: string;
  start(): void;
  /** Poll now instead of after the current wait. */
  nudge(): void;
  /** Stops polling and waits for the job in hand to finish. Idempotent. */
  stop(): Promise<void>;
}

export function createJobWorker(options: JobWorkerOptions): JobWorker {
  const { store, runners, logger } = options;
  const workerId = options.workerId ?? `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
  const leaseMs = options.leaseMs ?? 60_000;
  const minIdleMs = options.minIdleMs ?? 100;
  const maxIdleMs = options.maxIdleMs ?? 2_000;
  const kinds = Object.keys(runners);
  let running = false;
  let loop: Promise<void> | undefined;
  let wake: (() => void) | undefined;
  let nudged = false;

  function wait(ms: number): Promise<void> {
    if (nudged || !running) {
      nudged = false;
      return Promise.resolve();
    }
    return new Promise<void>((resolve) => {
      const timer = setTimeout(done, ms);
      function done() {
        clearTimeout(timer);
        wake = undefined;
        nudged = false;
        resolve();
      }
      wake = done;
    });
  }

  async function runOne(job: Job<unknown>): Promise<void> {
    const runner = runners[job.kind]!;
    const fields = { jobId: job.id, kind: job.kind, attempt: job.attempts, workerId };
    try {
      await runner(job as Job<never>);
      await store.completeJob(job.id, { workerId });
    } catch (error) {
      const permanent = error instanceof PermanentJobFailure;
      const failed = await store.failJob(job.id, error, { workerId, giveUp: permanent });
      const level = permanent || failed?.status === 'failed' ? 'error' : 'warn';
      logger[level](
        { ...fields, err: error, retryAt: failed?.status === 'pending' ? failed.runAt : undefined },
        failed?.status === 'pending' ? 'job failed; will retry' : 'job failed for good',
      );
    }
  }

  async function pollLoop(): Promise<void> {
    let idleMs = minIdleMs;
    while (running) {
      let job: Job<unknown> | undefined;
      try {
        job = await store.claimNextJob(workerId, { kinds, lockMs: leaseMs });
      } catch (error) {
        // The database may be restarting: keep polling, slower.
        logger.warn({ workerId, err: error }, 'could not poll for jobs');
      }
      if (job) {
        idleMs = minIdleMs;
        await runOne(job);
        continue;
      }
      await wait(idleMs);
      idleMs = Math.min(maxIdleMs, idleMs * 2);
    }
  }

  return {
    workerId,
    start() {
      if (running) return;
      running = true;
      loop = pollLoop();
    },
    nudge() {
      nudged = true;
      wake?.();
    },
    async stop() {
      running = false;
      wake?.();
      await loop;
    },
  };
}

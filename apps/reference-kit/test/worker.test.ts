/**
 * The job worker: retries with backoff until the job succeeds, gives up on a permanent failure,
 * waits for its job in hand when stopped, and polls ever less often while idle (no busy loop).
 */
import type { Job, Store } from '@bnpl-kit/store';
import { openStore } from '@bnpl-kit/store';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createJobWorker, type JobWorker, PermanentJobFailure } from '../src/index.js';
import { waitFor } from '../src/testing/index.js';

const quiet = { debug() {}, info() {}, warn() {}, error() {} };

describe('job worker', () => {
  let store: Store;
  beforeAll(async () => {
    store = await openStore({ memory: true, jobRetry: { baseDelayMs: 10, maxDelayMs: 40 } });
  });
  afterAll(() => store.close());

  /** Enqueues one job of `kind`, starts the worker and resolves with the job once it is `status`. */
  async function runOneJob(worker: JobWorker, kind: string, status: 'done' | 'failed'): Promise<Job> {
    const { job } = await store.transaction((tx) =>
      tx.enqueueJob({ kind, payload: {}, dedupeKey: `${kind}-1` }),
    );
    worker.start();
    try {
      return await waitFor(
        async () => {
          const current = await store.findJob(job.id);
          return current?.status === status ? current : undefined;
        },
        { what: `the ${kind} job to be ${status}` },
      );
    } finally {
      await worker.stop();
    }
  }

  it('retries a failing job with backoff until it succeeds', async () => {
    let calls = 0;
    const worker = createJobWorker({
      store,
      logger: quiet,
      minIdleMs: 5,
      maxIdleMs: 20,
      runners: {
        flaky: async () => {
          calls++;
          if (calls < 3) throw new Error(`attempt ${calls} failed`);
        },
      },
    });
    const done = await runOneJob(worker, 'flaky', 'done');
    expect(done.attempts).toBe(3);
    expect(calls).toBe(3);
  });

  it('gives up at once on a permanent failure', async () => {
    const worker = createJobWorker({
      store,
      logger: quiet,
      minIdleMs: 5,
      runners: {
        doomed: async () => {
          throw new PermanentJobFailure('the service refused');
        },
      },
    });
    const failed = await runOneJob(worker, 'doomed', 'failed');
    expect(failed).toMatchObject({ attempts: 1, lastError: 'PermanentJobFailure: the service refused' });
  });

  it('waits for the job in hand when stopped', async () => {
    let release!: () => void;
    let started!: () => void;
    const running = new Promise<void>((resolve) => {
      started = resolve;
    });
    const worker = createJobWorker({
      store,
      logger: quiet,
      minIdleMs: 5,
      runners: {
        slow: () => {
          started();
          return new Promise<void>((resolve) => {
            release = resolve;
          });
        },
      },
    });
    const { job } = await store.transaction((tx) =>
      tx.enqueueJob({ kind: 'slow', payload: {}, dedupeKey: 'slow-1' }),
    );
    worker.start();
    await running;
    let stopped = false;
    const stopping = worker.stop().then(() => {
      stopped = true;
    });
    await Promise.resolve();
    expect(stopped).toBe(false);
    release();
    await stopping;
    expect((await store.findJob(job.id))?.status).toBe('done');
  });

  it('backs off while idle and wakes up when nudged', async () => {
    vi.useFakeTimers();
    try {
      const claims: number[] = [];
      const fake = {
        claimNextJob: vi.fn(async () => {
          claims.push(Date.now());
          return undefined;
        }),
      } as unknown as Store;
      const worker = createJobWorker({
        store: fake,
        logger: quiet,
        runners: { x: async () => {} },
        minIdleMs: 100,
        maxIdleMs: 2_000,
      });
      worker.start();
      await vi.advanceTimersByTimeAsync(20_000);
      // 100 + 200 + 400 + 800 + 1600 ms, then every 2 s: about 15 polls in 20 s, not thousands.
      expect(claims.length).toBeGreaterThanOrEqual(10);
      expect(claims.length).toBeLessThanOrEqual(16);
      const before = claims.length;
      worker.nudge();
      await vi.advanceTimersByTimeAsync(0);
      expect(claims.length).toBe(before + 1);
      await worker.stop();
    } finally {
      vi.useRealTimers();
    }
  });
});

// Keeps the type import used when the file is read alone.
export type { Job };

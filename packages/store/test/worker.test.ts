/**
 * The job worker (`@bnpl-kit/store/worker`): retries with the kit's backoff until the job succeeds,
 * gives up on a permanent failure, drains (stops claiming, waits for jobs in hand up to a deadline,
 * then aborts them), polls ever less often while idle, and enqueues each periodic job once per
 * period however many workers run.
 */
import { Secret, type ServiceClient } from '@bnpl-kit/core';
import { pollUntil } from '@bnpl-kit/core/testing';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { type Job, openStore, type Store } from '../src/index.js';
import {
  createJobWorker,
  createMarketWorker,
  type JobWorker,
  PermanentJobFailure,
  periodicDedupeKey,
  webhookReplayWindowMs,
} from '../src/worker.js';
import { backends, databaseForSuite, manualClock, unique } from './helpers/backends.js';

/**
 * How long a wait for the worker may take before it counts as hung: every package's suite runs at
 * once on two shared cores in CI, where 20 s was within reach of a healthy poll loop. Waits end on
 * the awaited state, never on this.
 */
const HUNG_MS = 200_000;

const quiet = { debug() {}, info() {}, warn() {}, error() {} };

describe('job worker', () => {
  let store: Store;
  beforeAll(async () => {
    store = await openStore({ memory: true, jobRetry: { baseDelayMs: 10, maxDelayMs: 40 } });
  });
  afterAll(() => store.close());

  async function enqueue(kind: string) {
    const { job } = await store.enqueueJob({ kind, payload: {}, dedupeKey: unique(kind) });
    return job;
  }

  function until(job: Job, status: Job['status']): Promise<Job> {
    return pollUntil(
      async () => {
        const current = await store.findJob(job.id);
        return current?.status === status ? current : undefined;
      },
      { timeoutMs: HUNG_MS, what: `job ${job.kind} to be ${status}` },
    );
  }

  async function runOneJob(worker: JobWorker, kind: string, status: 'done' | 'failed'): Promise<Job> {
    const job = await enqueue(kind);
    worker.start();
    try {
      return await until(job, status);
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

  /** A runner that signals when it starts and finishes only when released (or aborted). */
  function heldRunner() {
    let release!: () => void;
    let started!: (signal: AbortSignal) => void;
    const running = new Promise<AbortSignal>((resolve) => {
      started = resolve;
    });
    const runner = (_job: Job<never>, { signal }: { signal: AbortSignal }) => {
      started(signal);
      return new Promise<void>((resolve, reject) => {
        release = resolve;
        signal.addEventListener('abort', () => reject(signal.reason), { once: true });
      });
    };
    return { runner, running, release: () => release() };
  }

  it('drains: stops claiming, and lets the job in hand finish before the deadline', async () => {
    const held = heldRunner();
    const worker = createJobWorker({ store, logger: quiet, minIdleMs: 5, runners: { slow: held.runner } });
    const job = await enqueue('slow');
    worker.start();
    await held.running;
    const later = await enqueue('slow');
    let stopped = false;
    const stopping = worker.stop({ deadlineMs: 60_000 }).then((result) => {
      stopped = true;
      return result;
    });
    await Promise.resolve();
    expect(worker.state).toBe('draining');
    expect(stopped).toBe(false);
    held.release();
    expect(await stopping).toEqual({ drained: true });
    expect(worker.state).toBe('stopped');
    expect((await store.findJob(job.id))?.status).toBe('done');
    // Nothing was claimed after the drain began.
    expect((await store.findJob(later.id))?.status).toBe('pending');
  });

  it('drains: at the deadline aborts the job in hand and returns without it', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    try {
      const held = heldRunner();
      const worker = createJobWorker({ store, logger: quiet, minIdleMs: 5, runners: { stuck: held.runner } });
      const job = await enqueue('stuck');
      worker.start();
      const signal = await held.running;
      const stopping = worker.stop({ deadlineMs: 5_000 });
      await vi.advanceTimersByTimeAsync(5_000);
      expect(await stopping).toEqual({ drained: false });
      expect(signal.aborted).toBe(true);
      // The aborted attempt is recorded as failed and goes back to pending for another worker.
      vi.useRealTimers();
      expect((await until(job, 'pending')).lastError).toContain('shutting down');
    } finally {
      vi.useRealTimers();
    }
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
        concurrency: 1,
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

  it('refuses settings that would make it spin or never run a periodic job', () => {
    const base = { store, runners: { x: async () => {} } };
    expect(() => createJobWorker({ ...base, leaseMs: 0 })).toThrow(/leaseMs/);
    expect(() => createJobWorker({ ...base, minIdleMs: -1 })).toThrow(/minIdleMs/);
    expect(() => createJobWorker({ ...base, concurrency: 0 })).toThrow(/concurrency/);
    expect(() => createJobWorker({ ...base, periodic: [{ kind: 'y', everyMs: 1_000 }] })).toThrow(
      /no runner/,
    );
    expect(() => createJobWorker({ ...base, periodic: [{ kind: 'x', everyMs: 0 }] })).toThrow(/everyMs/);
  });
});

describe.each(backends)('periodic jobs on $name', (backend) => {
  const clock = manualClock(new Date('2031-05-01T10:00:30.000Z'));
  const suite = databaseForSuite(backend, { now: clock.now });

  it('enqueues one run per period, however many workers poll', async () => {
    const kind = unique('tick');
    const runs: string[] = [];
    const workers = [suite.store, suite.peer].flatMap((store) =>
      [1, 2].map(() =>
        createJobWorker({
          store,
          logger: quiet,
          minIdleMs: 5,
          maxIdleMs: 20,
          now: clock.now,
          runners: { [kind]: async (job) => void runs.push(job.dedupeKey) },
          periodic: [{ kind, everyMs: 60_000 }],
        }),
      ),
    );
    for (const worker of workers) worker.start();
    try {
      const first = periodicDedupeKey(kind, new Date('2031-05-01T10:00:00.000Z'));
      await pollUntil(async () => (runs.length >= 1 ? true : undefined), {
        timeoutMs: HUNG_MS,
        what: 'run 1',
      });
      clock.advance(60_000);
      await pollUntil(async () => (runs.length >= 2 ? true : undefined), {
        timeoutMs: HUNG_MS,
        what: 'run 2',
      });
      // Every worker has polled again since the second period began (a nudge makes each poll once).
      for (const worker of workers) worker.nudge();
      const jobs = await pollUntil(
        async () => {
          const listed = await suite.store.listJobs({ kind });
          return listed.every((j) => j.status === 'done') ? listed : undefined;
        },
        { timeoutMs: HUNG_MS, what: 'both runs to be done' },
      );
      expect(jobs.map((j) => j.dedupeKey)).toEqual([
        first,
        periodicDedupeKey(kind, new Date('2031-05-01T10:01:00.000Z')),
      ]);
      expect(runs).toEqual(jobs.map((j) => j.dedupeKey));
    } finally {
      await Promise.all(workers.map((w) => w.stop()));
    }
  });
});

describe('createMarketWorker', () => {
  let store: Store;
  beforeAll(async () => {
    store = await openStore({ memory: true });
  });
  afterAll(() => store.close());
  const config = {
    integrationMode: 'data-sharing' as const,
    serviceApiUrl: 'https://service.example/api',
    appApiKey: new Secret('sk_test_worker'),
    webhookToleranceSeconds: 300,
  };

  it('builds from the validated config alone, as createMarket does', () => {
    expect(createMarketWorker({ store, config }).state).toBe('idle');
  });

  it('refuses, as misconfigured, no way to reach the service, no mode, or a retention inside the replay window', () => {
    const misconfigured = expect.objectContaining({ code: 'misconfigured' });
    expect(() => createMarketWorker({ store, integrationMode: 'basic' })).toThrow(misconfigured);
    expect(() => createMarketWorker({ store, config: { ...config, appApiKey: undefined } })).toThrow(
      /APP_API_KEY/,
    );
    const service = {} as ServiceClient;
    expect(() => createMarketWorker({ store, service })).toThrow(/integrationMode/);
    const replay = webhookReplayWindowMs(300);
    expect(() => createMarketWorker({ store, config, retention: { afterMs: replay } })).toThrow(
      /replay window/,
    );
    // The market's own tolerance widens the window the retention must exceed.
    const wide = { ...config, webhookToleranceSeconds: 900 };
    expect(() => createMarketWorker({ store, config: wide, retention: { afterMs: replay + 1 } })).toThrow(
      misconfigured,
    );
    expect(createMarketWorker({ store, config, retention: false, reconciliation: false }).state).toBe('idle');
  });
});

import { describe, expect, it } from 'vitest';
import type { Store } from '../src/index.js';
import { jobBackoffMs } from '../src/repositories/jobs/backoff.js';
import { backends, databaseForSuite, manualClock, unique } from './helpers/backends.js';

describe('jobBackoffMs', () => {
  it("is the kit's one policy: full jitter under a ceiling that doubles from the base to the cap", () => {
    const top = { baseDelayMs: 1_000, maxDelayMs: 10_000, random: () => 0.999_999 };
    expect([1, 2, 3, 4, 5, 6, 60].map((n) => jobBackoffMs(n, top))).toEqual([
      999, 1_999, 3_999, 7_999, 9_999, 9_999, 9_999,
    ]);
    const half = { ...top, random: () => 0.5 };
    expect([1, 2, 3].map((n) => jobBackoffMs(n, half))).toEqual([500, 1_000, 2_000]);
    const [first, second] = [0.1, 0.7].map((r) => jobBackoffMs(4, { ...top, random: () => r }));
    expect(first).not.toBe(second);
  });
});

describe.each(backends)('jobs on $name', (backend) => {
  const clock = manualClock();
  const suite = databaseForSuite(backend, {
    now: clock.now,
    // The top of each jitter range, so the schedule below is exact.
    jobRetry: { baseDelayMs: 1_000, maxDelayMs: 4_000, random: () => 0.999_999 },
  });

  /** A job of a kind of its own, allowed `maxAttempts` attempts. */
  async function enqueueLimited(maxAttempts: number) {
    const kind = unique('kind');
    const { job } = await suite.store.enqueueJob({
      kind,
      payload: {},
      dedupeKey: unique('key'),
      maxAttempts,
    });
    return { kind, job };
  }

  it('enqueues a dedupe key once', async () => {
    const kind = unique('kind');
    const dedupeKey = unique('key');
    const first = await suite.store.enqueueJob({
      kind,
      payload: { orderId: 'o1', amount: '150000' },
      dedupeKey,
    });
    expect(first.created).toBe(true);
    expect(first.job).toMatchObject({
      kind,
      payload: { orderId: 'o1', amount: '150000' },
      dedupeKey,
      status: 'pending',
      attempts: 0,
      maxAttempts: 10,
      runAt: clock.now(),
      lockedBy: undefined,
      lockedUntil: undefined,
      lastError: undefined,
    });
    const again = await suite.peer.enqueueJob({ kind, payload: { other: true }, dedupeKey });
    expect(again).toEqual({ job: first.job, created: false });
    expect(await suite.store.listJobs({ kind })).toEqual([first.job]);
  });

  it('enqueues inside a transaction, visible only once it commits', async () => {
    const kind = unique('kind');
    await suite.store.transaction(async (tx) => {
      await tx.enqueueJob({ kind, payload: null, dedupeKey: unique('key') });
      expect(await tx.listJobs({ kind })).toHaveLength(1);
    });
    expect(await suite.store.listJobs({ kind })).toHaveLength(1);
  });

  it('claims only due jobs of the requested kinds, leasing them to the worker', async () => {
    const kind = unique('kind');
    const other = unique('kind');
    expect(await suite.store.claimNextJob('w1', { kinds: [kind], lockMs: 30_000 })).toBeUndefined();
    const later = await suite.store.enqueueJob({
      kind,
      payload: { n: 2 },
      dedupeKey: unique('key'),
      runAt: new Date(clock.now().getTime() + 5_000),
    });
    const due = await suite.store.enqueueJob({ kind, payload: { n: 1 }, dedupeKey: unique('key') });
    await suite.store.enqueueJob({ kind: other, payload: {}, dedupeKey: unique('key') });

    const claimed = await suite.store.claimNextJob<{ n: number }>('w1', { kinds: [kind], lockMs: 30_000 });
    expect(claimed).toMatchObject({
      id: due.job.id,
      payload: { n: 1 },
      status: 'running',
      attempts: 1,
      lockedBy: 'w1',
      lockedUntil: new Date(clock.now().getTime() + 30_000),
    });
    expect(await suite.store.claimNextJob('w2', { kinds: [kind], lockMs: 30_000 })).toBeUndefined();
    clock.advance(5_000);
    expect((await suite.store.claimNextJob('w2', { kinds: [kind], lockMs: 30_000 }))?.id).toBe(later.job.id);

    expect(await suite.store.completeJob(due.job.id, { workerId: 'w1' })).toBe(true);
    expect(await suite.store.completeJob(due.job.id, { workerId: 'w1' })).toBe(false);
    expect(await suite.store.findJob(due.job.id)).toMatchObject({ status: 'done', lockedUntil: undefined });
  });

  it('gives every job to exactly one of two concurrent workers', async () => {
    const kind = unique('kind');
    const total = 40;
    for (let i = 0; i < total; i++)
      await suite.store.enqueueJob({ kind, payload: { i }, dedupeKey: `${kind}-${i}` });
    const runs: { worker: string; id: string }[] = [];
    const work = async (worker: string, s: Store) => {
      for (;;) {
        const job = await s.claimNextJob(worker, { kinds: [kind], lockMs: 60_000 });
        if (job === undefined) return;
        runs.push({ worker, id: job.id });
        expect(await s.completeJob(job.id, { workerId: worker })).toBe(true);
      }
    };
    await Promise.all([
      work('a', suite.store),
      work('b', suite.peer),
      work('c', suite.store),
      work('d', suite.peer),
    ]);
    expect(runs).toHaveLength(total);
    expect(new Set(runs.map((r) => r.id)).size).toBe(total);
    const jobs = await suite.store.listJobs({ kind });
    expect(jobs.every((j) => j.status === 'done' && j.attempts === 1)).toBe(true);
  });

  it('hands a job whose worker died to another worker once the lease expires', async () => {
    const kind = unique('kind');
    const { job } = await suite.store.enqueueJob({ kind, payload: {}, dedupeKey: unique('key') });
    const crashed = await suite.store.claimNextJob('dead-worker', { kinds: [kind], lockMs: 30_000 });
    expect(crashed?.id).toBe(job.id);

    clock.advance(29_999);
    expect(await suite.peer.claimNextJob('rescuer', { kinds: [kind], lockMs: 30_000 })).toBeUndefined();
    clock.advance(2);
    const rescued = await suite.peer.claimNextJob('rescuer', { kinds: [kind], lockMs: 30_000 });
    expect(rescued).toMatchObject({ id: job.id, attempts: 2, lockedBy: 'rescuer', status: 'running' });

    // The original worker comes back late: its lease is gone, so its outcome is not recorded.
    expect(await suite.store.completeJob(job.id, { workerId: 'dead-worker' })).toBe(false);
    expect(await suite.store.failJob(job.id, new Error('late'), { workerId: 'dead-worker' })).toBeUndefined();
    expect(await suite.peer.completeJob(job.id, { workerId: 'rescuer' })).toBe(true);
  });

  it('fails a job whose lease expired on its last allowed attempt instead of handing it out again', async () => {
    const { kind, job } = await enqueueLimited(2);
    expect((await suite.store.claimNextJob('w1', { kinds: [kind], lockMs: 1_000 }))?.attempts).toBe(1);
    clock.advance(1_001);
    expect((await suite.store.claimNextJob('w2', { kinds: [kind], lockMs: 1_000 }))?.attempts).toBe(2);
    clock.advance(1_001);
    expect(await suite.store.claimNextJob('w3', { kinds: [kind], lockMs: 1_000 })).toBeUndefined();
    expect(await suite.store.findJob(job.id)).toMatchObject({
      status: 'failed',
      attempts: 2,
      lockedUntil: undefined,
      lastError: expect.stringContaining('lease expired'),
    });
  });

  it('retries a failed job with exponential backoff, then gives up after maxAttempts', async () => {
    const { kind, job } = await enqueueLimited(4);
    const claim = () => suite.store.claimNextJob('w', { kinds: [kind], lockMs: 60_000 });
    const delays: number[] = [];
    for (let attempt = 1; attempt <= 3; attempt++) {
      expect((await claim())?.attempts).toBe(attempt);
      const failedAt = clock.now().getTime();
      const failed = await suite.store.failJob(job.id, new Error(`boom ${attempt}`), { workerId: 'w' });
      expect(failed).toMatchObject({
        status: 'pending',
        attempts: attempt,
        lastError: `Error: boom ${attempt}`,
      });
      expect(failed?.lockedUntil).toBeUndefined();
      const delay = failed!.runAt.getTime() - failedAt;
      delays.push(delay);
      clock.advance(delay - 1);
      expect(await claim()).toBeUndefined();
      clock.advance(1);
    }
    expect(delays).toEqual([999, 1_999, 3_999]);
    expect((await claim())?.attempts).toBe(4);
    expect(await suite.store.failJob(job.id, 'still broken')).toMatchObject({
      status: 'failed',
      lastError: 'still broken',
    });
    clock.advance(60_000);
    expect(await claim()).toBeUndefined();
  });

  it('keeps the last error of a job that succeeded after failed attempts', async () => {
    const { kind, job } = await enqueueLimited(4);
    const claim = () => suite.store.claimNextJob('w', { kinds: [kind], lockMs: 60_000 });
    await claim();
    const failed = await suite.store.failJob(job.id, new Error('boom'), { workerId: 'w' });
    clock.advance(failed!.runAt.getTime() - clock.now().getTime());
    expect((await claim())?.attempts).toBe(2);
    expect(await suite.store.completeJob(job.id, { workerId: 'w' })).toBe(true);
    expect(await suite.store.findJob(job.id)).toMatchObject({
      status: 'done',
      attempts: 2,
      lastError: 'Error: boom',
    });
  });

  it('retries at the time the caller gives, or gives up when told to', async () => {
    const kind = unique('kind');
    const { job } = await suite.store.enqueueJob({ kind, payload: {}, dedupeKey: unique('key') });
    const claim = () => suite.store.claimNextJob('w', { kinds: [kind], lockMs: 60_000 });
    await claim();
    const retryAt = new Date(clock.now().getTime() + 123_000);
    expect((await suite.store.failJob(job.id, 'x', { retryAt }))?.runAt).toEqual(retryAt);
    clock.advance(123_000);
    await claim();
    expect((await suite.store.failJob(job.id, 'x', { retryInMs: 7 }))?.runAt).toEqual(
      new Date(clock.now().getTime() + 7),
    );
    clock.advance(7);
    await claim();
    expect(await suite.store.failJob(job.id, 'fatal', { giveUp: true })).toMatchObject({
      status: 'failed',
      attempts: 3,
    });
    expect(await suite.store.failJob(job.id, 'again')).toBeUndefined();
  });
});

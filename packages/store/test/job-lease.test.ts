/**
 * Issue 34, job leases: a job that runs three times its lease is renewed while it runs and
 * completes once (nobody claims it mid-run); a lease lost mid-run aborts the job's signal and is
 * counted `lost`, never `done`, also when only `completeJob` finds out; failed periodic runs are
 * pruned by retention. The lease is counted on the store's injected clock, which the test moves.
 */
import { type MarketLogger, silentLogger } from '@bnpl-kit/core';
import { pollUntil } from '@bnpl-kit/core/testing';
import { describe, expect, it } from 'vitest';
import type { Job, Store } from '../src/index.js';
import { createJobWorker, PRUNE_JOB, RECONCILE_JOB, runRetention } from '../src/worker.js';
import { backends, deferred, manualClock, unique } from './helpers/backends.js';

const HUNG_MS = 60_000;
const LEASE_MS = 1_000;

function recordingLogger() {
  const lines: { level: string; msg: string; fields: Record<string, unknown> }[] = [];
  const at =
    (level: string) =>
    (fields: Record<string, unknown>, msg = '') =>
      void lines.push({ level, msg, fields });
  const logger: MarketLogger = { debug: at('debug'), info: at('info'), warn: at('warn'), error: at('error') };
  return { logger, lines };
}

const lockedUntil = async (store: Store, id: string) =>
  (await store.findJob(id))?.lockedUntil?.getTime() ?? 0;

describe.each(backends)('job leases on $name', (backend) => {
  it('renews the lease of a job that runs 3× its lease, which completes once', async () => {
    const clock = manualClock();
    const db = await backend.open({ now: clock.now });
    const peer = await db.peer({ now: clock.now });
    const release = deferred();
    let runs = 0;
    const kind = unique('long');
    const worker = createJobWorker({
      store: db.store,
      runners: {
        [kind]: async () => {
          runs++;
          await release.promise;
        },
      },
      leaseMs: LEASE_MS,
      leaseRenewEveryMs: 20,
      minIdleMs: 5,
      maxIdleMs: 20,
      now: clock.now,
      logger: silentLogger,
    });
    try {
      const { job } = await db.store.enqueueJob({
        kind,
        payload: {},
        dedupeKey: unique('d'),
        runAt: clock.now(),
      });
      worker.start();
      await pollUntil(
        async () => ((await db.store.findJob(job.id))?.status === 'running' ? true : undefined),
        {
          timeoutMs: HUNG_MS,
          what: 'the job to run',
        },
      );
      for (let step = 1; step <= 6; step++) {
        clock.advance(LEASE_MS / 2);
        // The renewal counts the lease from the moved clock; without it the lease has run out.
        await pollUntil(
          async () =>
            (await lockedUntil(db.store, job.id)) >= clock.now().getTime() + LEASE_MS ? true : undefined,
          { timeoutMs: 5_000, what: `the lease renewed after ${step * 0.5} leases` },
        );
        expect(
          await peer.claimNextJob('another-worker', { kinds: [kind], lockMs: LEASE_MS }),
        ).toBeUndefined();
      }
      release.resolve();
      const done = await pollUntil(
        async () => {
          const current = await db.store.findJob(job.id);
          return current?.status === 'done' ? current : undefined;
        },
        { timeoutMs: HUNG_MS, what: 'the job to be done' },
      );
      expect(runs).toBe(1);
      expect(done.attempts).toBe(1);
    } finally {
      release.resolve();
      await worker.stop();
      await db.close();
    }
  });

  it('aborts the job when a renewal finds the lease lost, and counts it lost, not done', async () => {
    const db = await backend.open();
    const { logger, lines } = recordingLogger();
    const kind = unique('stolen');
    const aborted = deferred<unknown>();
    const worker = createJobWorker({
      store: db.store,
      runners: {
        [kind]: (_job, { signal }) =>
          new Promise<void>((resolve) => {
            signal.addEventListener('abort', () => {
              aborted.resolve(signal.reason);
              resolve();
            });
          }),
      },
      leaseMs: LEASE_MS,
      leaseRenewEveryMs: 20,
      minIdleMs: 5,
      maxIdleMs: 20,
      logger,
    });
    try {
      const { job } = await db.store.enqueueJob({ kind, payload: {}, dedupeKey: unique('d') });
      worker.start();
      await pollUntil(
        async () => ((await db.store.findJob(job.id))?.status === 'running' ? true : undefined),
        {
          timeoutMs: HUNG_MS,
          what: 'the job to run',
        },
      );
      // Another worker took the job over (as after an expired lease).
      await db.store.query("UPDATE bnpl_jobs SET locked_by = 'thief' WHERE id = $1", [job.id]);
      expect(String(await aborted.promise)).toMatch(/lease of job .* was lost/);
      const lost = await pollUntil(async () => lines.find((l) => l.msg.startsWith('job lease lost')), {
        timeoutMs: HUNG_MS,
        what: 'the lost lease logged',
      });
      expect(lost).toMatchObject({ level: 'warn', fields: { jobId: job.id, kind } });
      expect(await db.store.findJob(job.id)).toMatchObject({ status: 'running', lockedBy: 'thief' });
    } finally {
      await worker.stop();
      await db.close();
    }
  });

  it('counts a run whose completeJob finds the job taken over as lost, not done', async () => {
    const db = await backend.open();
    const { logger, lines } = recordingLogger();
    const kind = unique('late');
    const { store } = db;
    const worker = createJobWorker({
      // A store without renewals: only completeJob can notice.
      store: {
        claimNextJob: (...a) => store.claimNextJob(...a),
        completeJob: (...a) => store.completeJob(...a),
        failJob: (...a) => store.failJob(...a),
        enqueueJob: (...a) => store.enqueueJob(...a),
      },
      runners: {
        [kind]: async (job: Job) => {
          await store.query("UPDATE bnpl_jobs SET locked_by = 'thief' WHERE id = $1", [job.id]);
        },
      },
      leaseMs: LEASE_MS,
      minIdleMs: 5,
      maxIdleMs: 20,
      logger,
    });
    try {
      const { job } = await store.enqueueJob({ kind, payload: {}, dedupeKey: unique('d') });
      worker.start();
      const lost = await pollUntil(async () => lines.find((l) => l.msg.startsWith('job lease lost')), {
        timeoutMs: HUNG_MS,
        what: 'the lost lease logged',
      });
      expect(lost.fields).toMatchObject({ jobId: job.id });
      expect(await store.findJob(job.id)).toMatchObject({ status: 'running', lockedBy: 'thief' });
    } finally {
      await worker.stop();
      await db.close();
    }
  });

  it('prunes failed periodic runs with retention, and keeps other failed jobs', async () => {
    const clock = manualClock();
    const db = await backend.open({ now: clock.now });
    const { store } = db;
    try {
      const failed = async (kind: string) => {
        const { job } = await store.enqueueJob({
          kind,
          payload: {},
          dedupeKey: unique(kind),
          maxAttempts: 1,
          runAt: clock.now(),
        });
        expect(await store.claimNextJob('w', { kinds: [kind], lockMs: LEASE_MS })).toMatchObject({
          id: job.id,
        });
        await store.failJob(job.id, 'timed out');
        return job;
      };
      const reconcile = await failed(RECONCILE_JOB);
      const prune = await failed(PRUNE_JOB);
      const own = await failed(unique('own'));
      clock.advance(10 * LEASE_MS);
      await runRetention({ store, logger: silentLogger }, LEASE_MS, { id: 'run' }, [
        RECONCILE_JOB,
        PRUNE_JOB,
      ]);
      expect(await store.findJob(reconcile.id)).toBeUndefined();
      expect(await store.findJob(prune.id)).toBeUndefined();
      expect(await store.findJob(own.id)).toMatchObject({ status: 'failed' });
    } finally {
      await db.close();
    }
  });
});

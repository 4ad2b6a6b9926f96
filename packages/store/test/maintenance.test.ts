/**
 * What the worker's periodic jobs run, on every backend: reconciliation (stale open orders claimed
 * once per threshold, moved forward by the service's answer with a `reconciliation:` history row,
 * readiness enqueuing the disbursement, safe when runs overlap), retention (done jobs and old event
 * IDs deleted, failed jobs and recent rows kept, a window inside the replay window refused), and
 * requeueing by hand.
 */
import type { OrderStatus, ServiceClient } from '@bnpl-kit/core';
import { describe, expect, it } from 'vitest';
import {
  enqueueDisbursement,
  RECONCILIATION_SOURCE_PREFIX,
  retentionWindowMs,
  runReconciliation,
  webhookReplayWindowMs,
} from '../src/worker.js';
import { backends, databaseForSuite, unique } from './helpers/backends.js';
import { newOrder } from './helpers/fixtures.js';

const quiet = { debug() {}, info() {}, warn() {}, error() {} };
const MINUTE = 60_000;
const settings = { afterMs: 10 * MINUTE, batchSize: 1_000 };

/**
 * The database stamps `updated_at` and `processed_at` with its own now(), so this clock runs with
 * the real one and the test moves it ahead of it by hand.
 */
function aheadClock() {
  let offset = 0;
  return {
    now: () => new Date(Date.now() + offset),
    advance(ms: number) {
      offset += ms;
    },
  };
}

/** The service's side: the status it reports per order, and every `getOrder` it answered. */
function fakeService(statuses: Map<string, string>) {
  const asked: string[] = [];
  const service = {
    async getOrder(id: string) {
      asked.push(id);
      const status = statuses.get(id);
      if (status === undefined) throw new Error(`service does not know ${id}`);
      return { id, referenceId: `ref-${id}`, orderStatus: status };
    },
  } as unknown as Pick<ServiceClient, 'getOrder'>;
  return { service, asked };
}

describe.each(backends)('reconciliation on $name', (backend) => {
  const clock = aheadClock();
  const suite = databaseForSuite(backend, { now: clock.now });

  async function orderAt(status: OrderStatus) {
    const { order } = await suite.store.insertOrder(newOrder({ status }));
    return order.id;
  }

  // The first test: the clock is not ahead of the database's now() yet.
  it('corrects stale open orders once, with a source marker, and leaves fresh and final ones alone', async () => {
    const stale = await orderAt('PENDING');
    const paid = await orderAt('PAID');
    const unchanged = await orderAt('APPROVED');
    const behind = await orderAt('DISBURSING');
    const statuses = new Map<string, string>([
      [stale, 'APPROVED'],
      [paid, 'PAID'],
      [unchanged, 'APPROVED'],
      // An older status than the stored one moves nothing (§3).
      [behind, 'APPROVED'],
    ]);
    const { service, asked } = fakeService(statuses);
    const deps = { store: suite.store, service, logger: quiet };

    // Not stale yet: nothing is asked.
    expect((await runReconciliation(deps, settings, { id: 'run-0' })).checked).toBe(0);
    expect(asked).toEqual([]);
    clock.advance(10 * MINUTE + 1_000);
    const run = await runReconciliation(deps, settings, { id: 'run-1' });
    const ours = run.corrections.filter((c) => [stale, unchanged, behind].includes(c.orderId));
    expect(ours).toEqual([{ orderId: stale, from: 'PENDING', to: 'APPROVED' }]);
    expect(asked).not.toContain(paid);
    expect(asked).toEqual(expect.arrayContaining([stale, unchanged, behind]));
    expect((await suite.store.findOrderById(behind))?.status).toBe('DISBURSING');
    const history = await suite.store.listOrderStatusHistory(stale);
    expect(history.map((h) => [h.to, h.source])).toEqual([
      ['PENDING', 'create'],
      ['APPROVED', `${RECONCILIATION_SOURCE_PREFIX}run-1`],
    ]);

    // Within the threshold of that check, nobody is asked again.
    asked.length = 0;
    await runReconciliation(deps, settings, { id: 'run-2' });
    expect(asked).toEqual([]);
    // After it, the still-open ones are asked again; the service has moved one on meanwhile.
    statuses.set(unchanged, 'CANCELED');
    clock.advance(10 * MINUTE + 1_000);
    const again = await runReconciliation(deps, settings, { id: 'run-3' });
    expect(again.corrections).toContainEqual({ orderId: unchanged, from: 'APPROVED', to: 'CANCELED' });
    expect(again.corrections.map((c) => c.orderId)).not.toContain(stale);
  });

  it('enqueues the disbursement when the service reports the order ready', async () => {
    clock.advance(60 * MINUTE);
    const ready = await orderAt('APPROVED');
    const { service } = fakeService(new Map([[ready, 'DISBURSING']]));
    clock.advance(10 * MINUTE + 1_000);
    await runReconciliation(
      {
        store: suite.store,
        service,
        logger: quiet,
        onReady: (tx, order) => enqueueDisbursement(tx, order.id),
      },
      settings,
      { id: 'run-ready' },
    );
    expect((await suite.store.findOrderById(ready))?.status).toBe('DISBURSING');
    expect(await suite.store.findJobByDedupeKey(`disburse:${ready}`)).toMatchObject({ status: 'pending' });
  });

  it('counts an order the service cannot answer for as failed and carries on with the rest', async () => {
    clock.advance(60 * MINUTE);
    const unknown = await orderAt('PENDING');
    const known = await orderAt('PENDING');
    const { service } = fakeService(new Map([[known, 'CANCELED']]));
    clock.advance(10 * MINUTE + 1_000);
    const run = await runReconciliation({ store: suite.store, service, logger: quiet }, settings, {
      id: 'r',
    });
    expect(run.failed).toBeGreaterThanOrEqual(1);
    expect(run.corrections).toContainEqual({ orderId: known, from: 'PENDING', to: 'CANCELED' });
    expect((await suite.store.findOrderById(unknown))?.status).toBe('PENDING');
  });

  it('overlapping runs on two connections claim disjoint orders and correct each once', async () => {
    clock.advance(60 * MINUTE);
    const ids = await Promise.all(Array.from({ length: 6 }, () => orderAt('PENDING')));
    const statuses = new Map(ids.map((id) => [id, 'APPROVED']));
    clock.advance(10 * MINUTE + 1_000);
    const one = fakeService(statuses);
    const two = fakeService(statuses);
    const small = { afterMs: settings.afterMs, batchSize: 2 };
    const runs = await Promise.all(
      [
        [suite.store, one.service],
        [suite.peer, two.service],
        [suite.store, one.service],
        [suite.peer, two.service],
      ].map(([store, service], i) =>
        runReconciliation(
          { store: store as typeof suite.store, service: service as typeof one.service, logger: quiet },
          small,
          { id: `overlap-${i}` },
        ),
      ),
    );
    const asked = [...one.asked, ...two.asked].filter((id) => ids.includes(id));
    expect(new Set(asked).size).toBe(asked.length);
    const corrected = runs
      .flatMap((r) => r.corrections.map((c) => c.orderId))
      .filter((id) => ids.includes(id));
    expect(new Set(corrected).size).toBe(corrected.length);
    for (const id of corrected) {
      const history = await suite.store.listOrderStatusHistory(id);
      expect(history.filter((h) => h.source.startsWith(RECONCILIATION_SOURCE_PREFIX))).toHaveLength(1);
    }
  });
});

describe.each(backends)('retention and requeue on $name', (backend) => {
  const clock = aheadClock();
  const suite = databaseForSuite(backend, { now: clock.now });
  const DAY = 24 * 60 * MINUTE;

  it('deletes done jobs and event IDs older than the window, keeps failed jobs and recent rows', async () => {
    const store = suite.store;
    const doneOld = (await store.enqueueJob({ kind: unique('k'), payload: {}, dedupeKey: unique('d') })).job;
    const failedOld = (
      await store.enqueueJob({ kind: unique('k'), payload: {}, dedupeKey: unique('d'), maxAttempts: 1 })
    ).job;
    for (const job of [doneOld, failedOld])
      await store.claimNextJob('w', { kinds: [job.kind], lockMs: 60_000 });
    await store.completeJob(doneOld.id);
    await store.failJob(failedOld.id, 'broken');
    const oldEvent = unique('evt');
    await store.transaction((tx) => tx.markEventProcessed(oldEvent, 'X'));

    clock.advance(8 * DAY);
    const doneNew = (await store.enqueueJob({ kind: unique('k'), payload: {}, dedupeKey: unique('d') })).job;
    await store.claimNextJob('w', { kinds: [doneNew.kind], lockMs: 60_000 });
    await store.completeJob(doneNew.id);

    // Event IDs are stamped with the database's now(): move the clock past the window for them too.
    clock.advance(7 * DAY);
    const pruned = await store.pruneFinished(7 * DAY + MINUTE);
    expect(pruned.jobs).toBeGreaterThanOrEqual(1);
    expect(pruned.events).toBeGreaterThanOrEqual(1);
    expect(await store.findJob(doneOld.id)).toBeUndefined();
    expect(await store.findJob(failedOld.id)).toMatchObject({ status: 'failed' });
    expect(await store.findJob(doneNew.id)).toMatchObject({ status: 'done' });
    expect(await store.isEventProcessed(oldEvent)).toBe(false);
  });

  it('requeues failed and waiting jobs, and leaves running and done ones alone', async () => {
    const store = suite.store;
    const kind = unique('k');
    const failed = (await store.enqueueJob({ kind, payload: {}, dedupeKey: unique('d'), maxAttempts: 1 }))
      .job;
    await store.claimNextJob('w', { kinds: [kind], lockMs: 60_000 });
    await store.failJob(failed.id, 'broken');
    const requeued = await store.requeueJob(failed.id);
    expect(requeued.requeued).toBe(true);
    expect(requeued.job).toMatchObject({ status: 'pending', attempts: 0, lastError: 'broken' });
    expect((await store.claimNextJob('w', { kinds: [kind], lockMs: 60_000 }))?.id).toBe(failed.id);
    expect(await store.requeueJob(failed.id)).toMatchObject({ requeued: false, job: { status: 'running' } });
    await store.completeJob(failed.id);
    expect(await store.requeueJob(failed.id)).toMatchObject({ requeued: false, job: { status: 'done' } });
    expect(await store.requeueJob(unique('nope'))).toEqual({ requeued: false, job: undefined });
    const counts = await store.countJobs();
    expect(counts.byStatus.done).toBeGreaterThanOrEqual(1);
  });
});

describe('retention window', () => {
  it('must be longer than the webhook replay window (redelivery schedule, last timeout, tolerance)', () => {
    const replay = webhookReplayWindowMs(300);
    expect(replay).toBe((((6 * 60 + 72) * 60 + 35 + 10 + 300) * 1_000) as number);
    for (const afterMs of [0, -1, Number.NaN, 60_000, replay]) {
      expect(() => retentionWindowMs({ afterMs })).toThrow(/replay window/);
    }
    expect(retentionWindowMs({ afterMs: replay + 1 })).toBe(replay + 1);
    // A longer signature tolerance widens the window.
    expect(() => retentionWindowMs({ afterMs: replay + 1, webhookToleranceSeconds: 900 })).toThrow();
    expect(retentionWindowMs()).toBe(7 * 24 * 60 * MINUTE);
  });
});

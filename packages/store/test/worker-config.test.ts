/**
 * Issue 34: `createMarketWorker` reads reconciliation's settings from the same configuration as
 * the servers (`loadConfig`: RECONCILE_AFTER_MS, RECONCILE_EVERY_MS), whose defaults are the
 * worker's; and without a `logger` it writes its warnings through core's console logger, as
 * `createMarket` does, instead of staying silent.
 */
import { loadConfig, Secret } from '@bnpl-kit/core';
import { pollUntil } from '@bnpl-kit/core/testing';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { openStore, type Store } from '../src/index.js';
import { createMarketWorker, DEFAULT_RECONCILIATION, RECONCILE_JOB } from '../src/worker.js';
import { manualClock } from './helpers/backends.js';

describe('createMarketWorker and the configuration', () => {
  const clock = manualClock(new Date('2030-01-01T00:00:10.000Z'));
  let store: Store;
  beforeAll(async () => {
    store = await openStore({ memory: true, now: clock.now });
  });
  afterAll(() => store.close());

  it("has loadConfig's reconciliation defaults as its own", () => {
    const config = loadConfig({}, { integrationMode: 'basic' });
    expect({ afterMs: config.reconcileAfterMs, everyMs: config.reconcileEveryMs }).toEqual({
      afterMs: DEFAULT_RECONCILIATION.afterMs,
      everyMs: DEFAULT_RECONCILIATION.everyMs,
    });
  });

  it('runs reconciliation every RECONCILE_EVERY_MS of the configuration', async () => {
    const config = {
      ...loadConfig({ RECONCILE_EVERY_MS: '7000' }, { integrationMode: 'basic' }),
      serviceApiUrl: 'https://service.example/api',
      appApiKey: new Secret('sk_test_worker'),
    };
    const worker = createMarketWorker({ store, config, retention: false, now: clock.now, minIdleMs: 5 });
    worker.start();
    try {
      const [job] = await pollUntil(
        async () => {
          const jobs = await store.listJobs({ kind: RECONCILE_JOB });
          return jobs.length > 0 ? jobs : undefined;
        },
        { timeoutMs: 60_000, what: 'the first reconciliation job' },
      );
      const at = clock.now().getTime();
      // The period of 7 s, not the default minute.
      expect(job?.runAt.getTime()).toBe(Math.floor(at / 7_000) * 7_000);
      expect(Math.floor(at / 7_000) * 7_000).not.toBe(Math.floor(at / 60_000) * 60_000);
    } finally {
      await worker.stop();
    }
  });

  it('logs through the console logger when given none', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const failing = {
      ...store,
      claimNextJob: () => Promise.reject(new Error('database away')),
      enqueueJob: store.enqueueJob.bind(store),
    } as unknown as Store;
    const worker = createMarketWorker({
      store: failing,
      service: {} as never,
      integrationMode: 'basic',
      reconciliation: false,
      retention: false,
      minIdleMs: 5,
    });
    worker.start();
    try {
      await pollUntil(async () => (warn.mock.calls.length > 0 ? true : undefined), {
        timeoutMs: 60_000,
        what: 'a warning on the console',
      });
      expect(String(warn.mock.calls[0]?.[0])).toContain('could not poll for jobs');
    } finally {
      await worker.stop();
      warn.mockRestore();
    }
  });
});

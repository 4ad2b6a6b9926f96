/**
 * The worker's metrics at the reference server's `/metrics` (issue 21: "job queue depth and age,
 * reconciliation corrections"), with the values the job table and the reconciliation run say: an
 * order whose webhooks never arrive is paid at the service, the clock moves past the threshold (no
 * sleeping), reconciliation corrects it, jobs wait in the queue. The worker's log lines carry the
 * trace ID of the job's span.
 */
import { openStore, type Store } from '@bnpl-kit/store';
import { describe, expect, it, onTestFinished } from 'vitest';
import { startExternalService, waitFor } from '../src/testing/index.js';
import { marketClient } from './helpers/market-client.js';
import { removeDir, startTestServer } from './helpers/servers.js';

const RECONCILE_AFTER_MS = 10 * 60_000;
const HOUR = 3_600_000;

/** The real clock plus what the test adds: the database stamps orders with now(). */
function aheadClock() {
  let offset = 0;
  return {
    now: () => new Date(Date.now() + offset),
    advanceTo(at: number) {
      offset += at - (Date.now() + offset);
    },
  };
}

/** The value of one Prometheus sample whose name and labels match, or undefined. */
function sample(text: string, name: string, labels: Record<string, string> = {}): number | undefined {
  for (const line of text.split('\n')) {
    const match = /^([a-z_]+)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!match || match[1] !== name) continue;
    const have = Object.fromEntries(
      [...(match[2] ?? '').matchAll(/(\w+)="([^"]*)"/g)].map((m) => [m[1], m[2]] as const),
    );
    if (Object.entries(labels).every(([key, value]) => have[key] === value)) return Number(match[3]);
  }
  return undefined;
}

async function settled(store: Store) {
  return waitFor(
    async () => {
      const { byStatus } = await store.countJobs();
      return byStatus.pending === 0 && byStatus.running === 0 ? byStatus : undefined;
    },
    { what: 'the periodic jobs to finish' },
  );
}

describe('worker metrics at /metrics', () => {
  it('shows queue depth and age, job runs and reconciliation corrections with their true values', async () => {
    const clock = aheadClock();
    const service = await startExternalService(); // registers no webhook URL: every webhook is lost
    onTestFinished(() => service.close());
    const store = await openStore({ memory: true, now: clock.now });
    onTestFinished(() => store.close());
    const server = await startTestServer({
      mode: 'basic',
      store,
      env: {
        ...service.env,
        PUBLIC_BASE_URL: 'https://market.example',
        RECONCILE_AFTER_MS: String(RECONCILE_AFTER_MS),
        // One run per hour: between the runs the test controls, the queue holds still.
        RECONCILE_EVERY_MS: String(HOUR),
      },
      extra: { worker: { minIdleMs: 20, maxIdleMs: 200, now: clock.now } },
    });
    onTestFinished(async () => {
      await server.close();
      await removeDir(server.dataDir);
    });

    const orderId = await marketClient(server.url, service.env.MARKET_API_TOKEN).createOrder();
    service.server.sandbox.orders.approve(orderId);
    service.server.sandbox.orders.markPaid(orderId);
    await settled(store);

    // Just past the start of the first hour after the threshold: a new reconciliation period.
    clock.advanceTo(Math.ceil((clock.now().getTime() + RECONCILE_AFTER_MS + 60_000) / HOUR) * HOUR + 1_000);
    server.worker.nudge();
    await waitFor(async () => ((await store.findOrderById(orderId))?.status === 'PAID' ? true : undefined), {
      what: 'the order to be PAID through reconciliation',
    });
    await settled(store);

    // Jobs nobody runs (no runner for their kind): two due (the oldest 90 s ago), one in an hour.
    const enqueuedAt = clock.now().getTime();
    for (const [key, dueInMs] of [
      ['a', -90_000],
      ['b', -30_000],
      ['c', HOUR],
    ] as const) {
      await store.enqueueJob({
        kind: 'metrics-test',
        payload: {},
        dedupeKey: `metrics-test:${key}`,
        runAt: new Date(enqueuedAt + dueInMs),
      });
    }

    const text = await (await fetch(`${server.url}/metrics`)).text();
    const scrapedAt = clock.now().getTime();
    const counts = await store.countJobs();
    const depth = (status: string) => sample(text, 'bnpl_jobs_queue_depth', { bnpl_job_status: status });
    expect(depth('pending'), text).toBe(3);
    expect(depth('running')).toBe(0);
    expect(depth('failed')).toBe(0);
    expect(depth('done')).toBe(counts.byStatus.done);

    const age = sample(text, 'bnpl_jobs_queue_oldest_age');
    expect(age, text).toBeGreaterThanOrEqual(90);
    expect(age).toBeLessThanOrEqual(90 + (scrapedAt - enqueuedAt) / 1000);

    expect(
      sample(text, 'bnpl_reconciliation_corrections_total', {
        bnpl_from_status: 'PENDING',
        bnpl_to_status: 'PAID',
      }),
    ).toBe(1);
    const reconcileRuns = await store.listJobs({ kind: 'reconcile', status: 'done' });
    expect(sample(text, 'bnpl_jobs_runs_total', { bnpl_job_kind: 'reconcile', bnpl_outcome: 'done' })).toBe(
      reconcileRuns.length,
    );

    // The correction's log line carries the trace of the reconciliation job's span.
    const corrected = server.logs
      .map((line) => JSON.parse(line) as Record<string, unknown>)
      .find((line) => line.msg === 'reconciliation corrected an order status' && line.orderId === orderId);
    expect(corrected?.trace_id).toMatch(/^[0-9a-f]{32}$/);
  });
});

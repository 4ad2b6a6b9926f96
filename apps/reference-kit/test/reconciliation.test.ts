/**
 * Reconciliation, end to end (issue 21's acceptance): the service never delivers a single webhook
 * (no webhook URL is registered with it), an order is approved and made ready on the service's
 * side, and the clock moves past the threshold (no sleeping) → the order ends in the right status
 * through reconciliation alone. Data-sharing: reconciliation finds it DISBURSING, enqueues the
 * disbursement, the worker disburses, PAID. Two server instances (two workers) on one database
 * correct it exactly once. Basic mode: the provider paid, the order ends PAID.
 */
import { openStore, type Store } from '@bnpl-kit/store';
import { RECONCILIATION_SOURCE_PREFIX } from '@bnpl-kit/store/worker';
import { describe, expect, it, onTestFinished } from 'vitest';
import {
  BACKENDS,
  dropSchema,
  type ExternalService,
  freshSchema,
  startExternalService,
  TEST_DATABASE_URL,
  waitFor,
} from '../src/testing/index.js';
import { marketClient } from './helpers/market-client.js';
import { removeDir, startTestServer, type TestServer } from './helpers/servers.js';

const RECONCILE_AFTER_MS = 10 * 60_000;

/** Runs with the real clock, ahead of it by what the test adds: the database stamps orders with now(). */
function aheadClock() {
  let offset = 0;
  return {
    now: () => new Date(Date.now() + offset),
    advance(ms: number) {
      offset += ms;
    },
  };
}

async function setup(
  mode: 'basic' | 'data-sharing',
  backend: (typeof BACKENDS)[number],
  instances: number,
): Promise<{
  service: ExternalService;
  servers: TestServer[];
  store: Store;
  clock: ReturnType<typeof aheadClock>;
}> {
  const clock = aheadClock();
  const service = await startExternalService();
  onTestFinished(() => service.close());
  const schema = freshSchema();
  let shared: Store | undefined;
  if (backend === 'pglite') {
    shared = await openStore({ memory: true, now: clock.now });
    onTestFinished(() => shared!.close());
  } else {
    onTestFinished(() => dropSchema(schema));
  }
  const env = {
    ...service.env,
    PUBLIC_BASE_URL: 'https://market.example',
    RECONCILE_AFTER_MS: String(RECONCILE_AFTER_MS),
    ...(backend === 'postgres' && { DATABASE_URL: TEST_DATABASE_URL, DATABASE_SCHEMA: schema }),
  };
  const servers: TestServer[] = [];
  for (let i = 0; i < instances; i++) {
    const server = await startTestServer({
      mode,
      env,
      ...(shared && { store: shared }),
      extra: {
        worker: { minIdleMs: 20, maxIdleMs: 200, now: clock.now },
        ...(!shared && { storeOptions: { now: clock.now } }),
      },
    });
    onTestFinished(async () => {
      await server.close();
      await removeDir(server.dataDir);
    });
    servers.push(server);
  }
  return { service, servers, store: servers[0]!.store, clock };
}

async function reachesThroughReconciliation(store: Store, orderId: string, status: string) {
  return waitFor(async () => ((await store.findOrderById(orderId))?.status === status ? true : undefined), {
    what: `order ${orderId} to be ${status} through reconciliation`,
  });
}

describe.each(BACKENDS)('reconciliation with every webhook lost (%s)', (backend) => {
  it('data-sharing, two instances: ready on the service → reconciled, disbursed once, PAID', async () => {
    const { service, servers, store, clock } = await setup('data-sharing', backend, 2);
    const orderId = await marketClient(servers[0]!.url, service.env.MARKET_API_TOKEN).createOrder();
    service.server.sandbox.orders.approve(orderId);
    service.server.sandbox.orders.confirmReadiness(orderId, 'status');
    expect((await store.findOrderById(orderId))?.status).toBe('PENDING');
    expect(service.server.sandbox.calls.count('getOrder')).toBe(0);

    clock.advance(RECONCILE_AFTER_MS + 60_000);
    for (const server of servers) server.worker.nudge();
    await reachesThroughReconciliation(store, orderId, 'PAID');

    const history = await store.listOrderStatusHistory(orderId);
    expect(history.map((h) => h.to)).toEqual(['PENDING', 'DISBURSING', 'PAID']);
    expect(history[1]!.source.startsWith(RECONCILIATION_SOURCE_PREFIX)).toBe(true);
    expect(history[2]!.source).toMatch(/^job:/);
    // Exactly once, with two workers polling: one question to the service, one disbursement.
    const asked = service.server.sandbox.calls.list({ operation: 'getOrder' });
    expect(asked.filter((c) => c.path.endsWith(`/${orderId}`))).toHaveLength(1);
    expect(service.server.sandbox.calls.count('disburseOrder')).toBe(1);
    expect(service.server.sandbox.disbursements().filter((d) => d.orderId === orderId)).toHaveLength(1);
    const runs = await store.listJobs({ kind: 'reconcile' });
    expect(new Set(runs.map((r) => r.dedupeKey)).size).toBe(runs.length);
  });
});

describe('reconciliation in basic mode', () => {
  it('an order the provider paid with every webhook lost ends PAID', async () => {
    const { service, servers, store, clock } = await setup('basic', 'pglite', 1);
    const orderId = await marketClient(servers[0]!.url, service.env.MARKET_API_TOKEN).createOrder();
    service.server.sandbox.orders.approve(orderId);
    service.server.sandbox.orders.markPaid(orderId);

    clock.advance(RECONCILE_AFTER_MS + 60_000);
    servers[0]!.worker.nudge();
    await reachesThroughReconciliation(store, orderId, 'PAID');
    const history = await store.listOrderStatusHistory(orderId);
    expect(history.map((h) => [h.to, h.source.split(':')[0]])).toEqual([
      ['PENDING', 'create'],
      ['PAID', 'reconciliation'],
    ]);
  });
});

/**
 * Several server instances on one database cooperate: a webhook delivered to two instances at once
 * is processed once (the event ID is recorded in the transaction of its effect), readiness
 * delivered twice under different event IDs enqueues one disbursement job (its dedupe key), and
 * with every instance's worker polling, the job runs once. On PostgreSQL the two instances have
 * their own pools, as two processes would; PGlite is one connection in one process, so there two
 * in-process market instances share one store.
 */
import { EVENT_TYPES } from '@bnpl-kit/core';
import { openStore, type Store } from '@bnpl-kit/store';
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
import { http, marketClient } from './helpers/market-client.js';
import { removeDir, startTestServer, type TestServer } from './helpers/servers.js';

const PUBLIC_BASE_URL = 'https://market.example';
const WEBHOOK_URL = `${PUBLIC_BASE_URL}/v1/webhook`;

describe.each(BACKENDS)('two instances on one database (%s)', (backend) => {
  async function setup(): Promise<{ service: ExternalService; a: TestServer; b: TestServer; store: Store }> {
    const service = await startExternalService();
    onTestFinished(() => service.close());
    const schema = freshSchema();
    let shared: Store | undefined;
    if (backend === 'pglite') {
      shared = await openStore({ memory: true });
      onTestFinished(() => shared!.close());
    } else {
      onTestFinished(() => dropSchema(schema));
    }
    const env = {
      ...service.env,
      PUBLIC_BASE_URL,
      ...(backend === 'postgres' && { DATABASE_URL: TEST_DATABASE_URL, DATABASE_SCHEMA: schema }),
    };
    const start = async () => {
      const server = await startTestServer({ mode: 'data-sharing', env, ...(shared && { store: shared }) });
      onTestFinished(async () => {
        await server.close();
        await removeDir(server.dataDir);
      });
      return server;
    };
    const a = await start();
    const b = await start();
    return { service, a, b, store: a.store };
  }

  /** The same signed request, sent to both instances at the same moment. */
  async function deliverToBoth(
    service: ExternalService,
    servers: TestServer[],
    event: Parameters<ExternalService['sign']>[1],
    eventId: string,
  ) {
    const signed = await service.sign(WEBHOOK_URL, event, eventId);
    return Promise.all(
      servers.map((s) =>
        fetch(`${s.url}/v1/webhook`, { method: 'POST', headers: signed.headers, body: signed.body }).then(
          async (r) => ({ status: r.status, body: (await r.json()) as Record<string, unknown> }),
        ),
      ),
    );
  }

  it('processes a webhook delivered to both at once exactly once, and disburses once', async () => {
    const { service, a, b, store } = await setup();
    const orderId = await marketClient(a.url, service.env.MARKET_API_TOKEN).createOrder();
    expect((await store.findOrderById(orderId))?.status).toBe('PENDING');
    service.server.sandbox.orders.approve(orderId);

    const approved = await deliverToBoth(
      service,
      [a, b],
      { type: EVENT_TYPES.orderStatusUpdated, orderId, orderStatus: 'APPROVED' },
      'evt-approve',
    );
    expect(approved.map((r) => r.status)).toEqual([200, 200]);
    expect(approved.map((r) => r.body.duplicate === true).sort()).toEqual([false, true]);
    const history = await store.listOrderStatusHistory(orderId);
    expect(history.map((h) => h.to)).toEqual(['PENDING', 'APPROVED']);

    // Readiness, twice over (status update and requirement event), each delivered to both.
    service.server.sandbox.orders.confirmReadiness(orderId, 'status');
    const ready = await Promise.all([
      deliverToBoth(
        service,
        [a, b],
        { type: EVENT_TYPES.orderStatusUpdated, orderId, orderStatus: 'DISBURSING' },
        'evt-ready-status',
      ),
      deliverToBoth(
        service,
        [b, a],
        { type: EVENT_TYPES.disbursementRequirementUpdated, orderId, isFulfilled: true },
        'evt-ready-requirement',
      ),
    ]);
    expect(ready.flat().map((r) => r.status)).toEqual([200, 200, 200, 200]);
    expect(ready.flat().filter((r) => r.body.duplicate === true)).toHaveLength(2);

    const job = await waitFor(
      async () => {
        const found = await store.findJobByDedupeKey(`disburse:${orderId}`);
        return found?.status === 'done' ? found : undefined;
      },
      { what: 'the disbursement job to be done' },
    );
    expect(job.attempts).toBe(1);
    expect(await store.listJobs({ kind: 'disburse' })).toHaveLength(1);
    const calls = service.server.sandbox.calls.list({ operation: 'disburseOrder' });
    expect(calls).toHaveLength(1);
    expect(service.server.sandbox.disbursements().filter((d) => d.orderId === orderId)).toHaveLength(1);
    expect((await store.findOrderById(orderId))?.status).toBe('PAID');
    expect((await store.listOrderStatusHistory(orderId)).map((h) => h.to)).toEqual([
      'PENDING',
      'APPROVED',
      'DISBURSING',
      'PAID',
    ]);
    // Both instances answer for the same data.
    const status = await http(`${b.url}/bnpl/complete?order_id=${orderId}`, {
      token: service.env.MARKET_API_TOKEN,
    });
    expect(status.body.status).toBe('PAID');
  });
});

/** createPersistentSandbox: records survive a restart, each request's changes stored before its answer. */

import { kitErrorOf } from '@bnpl-kit/core/testing';
import { afterEach, describe, expect, it } from 'vitest';
import {
  createManualClock,
  createPersistentSandbox,
  createSandboxFetch,
  type PersistentSandbox,
  type PersistentSandboxOptions,
  type SandboxRecord,
  type SandboxRecordChange,
  type SandboxRecordStore,
} from '../src/index.js';
import { adminJson, directClient, fakeMarket, marketOrg, orderInput, status } from './support.js';

/** A record store in memory with the real one's all-or-nothing batches; `failNext` makes one save fail. */
function memoryRecords() {
  const rows = new Map<string, SandboxRecord>();
  const saves: SandboxRecordChange[][] = [];
  let failing = false;
  const store: SandboxRecordStore & { failNext(): void } = {
    async load() {
      return [...rows.values()].map((r) => structuredClone(r));
    },
    async save(changes) {
      if (failing) {
        failing = false;
        throw new Error('database unavailable');
      }
      saves.push([...changes]);
      for (const c of changes) {
        const key = `${c.kind}/${c.id}`;
        if (c.body === null) rows.delete(key);
        else rows.set(key, structuredClone({ kind: c.kind, id: c.id, body: c.body }));
      }
    },
    failNext() {
      failing = true;
    },
  };
  return { store, rows, saves };
}

const open: PersistentSandbox[] = [];
afterEach(() => {
  for (const s of open.splice(0)) s.close();
});

async function start(
  records: SandboxRecordStore,
  extra: Partial<PersistentSandboxOptions> = {},
  market = fakeMarket(),
) {
  const sandbox = await createPersistentSandbox({
    organizations: [marketOrg()],
    fetch: market.fetch,
    clock: createManualClock(),
    records,
    onPersistError: () => {},
    ...extra,
  });
  open.push(sandbox);
  return { sandbox, client: directClient(sandbox), market };
}

describe('a persistent sandbox', () => {
  it('keeps orders, their history, users and disbursements across a restart', async () => {
    const { store } = memoryRecords();
    const first = await start(store);
    const order = await first.client.createOrder(orderInput());
    expect((await adminJson(first.sandbox, 'POST', `/sandbox/orders/${order.id}/approve`, {})).status).toBe(
      200,
    );
    await adminJson(first.sandbox, 'POST', `/sandbox/orders/${order.id}/ready`, {});
    await first.client.disburseOrder(order.id, {});
    await first.sandbox.closeAndFlush();

    const second = await start(store);
    const again = await second.client.getOrder(order.id);
    expect(again).toMatchObject({ id: order.id, referenceId: 'order-1', orderStatus: 'PAID' });
    expect(second.sandbox.orders.get(order.id)?.history.map((h) => h.status)).toEqual([
      'PENDING',
      'APPROVED',
      'DISBURSING',
      'PAID',
    ]);
    expect(second.sandbox.disbursements()).toHaveLength(1);
    // The same reference again is the same order: the idempotency on reference_id survived too.
    expect((await second.client.createOrder(orderInput())).id).toBe(order.id);
  });

  it('stores a request’s changes before answering it', async () => {
    const { store, rows } = memoryRecords();
    const { client } = await start(store);
    const order = await client.createOrder(orderInput());
    expect(rows.get(`order/${order.id}`)?.body).toMatchObject({ id: order.id, status: 'PENDING' });
  });

  it('answers 503 when the change could not be stored, and stores it with the next write', async () => {
    const { store, rows } = memoryRecords();
    const { sandbox, client } = await start(store);
    const order = await client.createOrder(orderInput());
    store.failNext();
    const refused = await adminJson(sandbox, 'POST', `/sandbox/orders/${order.id}/approve`, {});
    expect(refused.status).toBe(503);
    expect(refused.headers.get('content-type')).toBe('application/problem+json');
    expect(rows.get(`order/${order.id}`)?.body).toMatchObject({ status: 'PENDING' });
    await sandbox.flush();
    expect(rows.get(`order/${order.id}`)?.body).toMatchObject({ status: 'APPROVED' });
  });

  it('says its store failed (503 store_unavailable); a caller sharing that store gets the error itself', async () => {
    const { store } = memoryRecords();
    const { sandbox } = await start(store);
    store.failNext();
    const standalone = directClient(sandbox, { retries: 0 });
    const overHttp = await kitErrorOf(standalone.createOrder(orderInput('first')));
    // A service's 5xx, as any remote service's: the client cannot know whose disk it was.
    expect(overHttp).toMatchObject({ code: 'upstream_rejected', extensions: { upstream_status: 503 } });

    store.failNext();
    const sharing = directClient(sandbox, {
      retries: 0,
      fetch: createSandboxFetch(sandbox, { sharesStore: true }),
    });
    const local = await kitErrorOf(sharing.createOrder(orderInput('second')));
    expect(local).toMatchObject({ code: 'store_unavailable', status: 503 });
    // Space again: the same call goes through.
    expect((await sharing.createOrder(orderInput('second'))).referenceId).toBe('second');
  });

  it('writes only what changed, and the JS API’s changes on flush()', async () => {
    const { store, saves } = memoryRecords();
    const { sandbox, client } = await start(store);
    const order = await client.createOrder(orderInput());
    saves.length = 0;
    sandbox.orders.approve(order.id);
    await sandbox.flush();
    // The order and the webhook its approval sent; nothing else.
    expect(saves.flat().map((c) => `${c.kind}/${c.id}`)).toEqual(['delivery/dlv_1', `order/${order.id}`]);
  });

  it('lets this run’s configuration win for its organisations and keeps others from the store', async () => {
    const { store } = memoryRecords();
    const first = await start(store);
    first.sandbox.organizations.upsert({ id: 'org-extra', name: 'Added on the dashboard' });
    await first.sandbox.closeAndFlush();
    const second = await start(store, {
      organizations: [marketOrg({ webhookUrls: ['https://moved.example/v1/webhook'] })],
    });
    expect(second.sandbox.organizations.get('org-market')?.webhookUrls).toEqual([
      'https://moved.example/v1/webhook',
    ]);
    expect(second.sandbox.organizations.get('org-extra')?.name).toBe('Added on the dashboard');
  });

  it('keeps the webhook log and retries an unfinished delivery after the restart', async () => {
    const { store } = memoryRecords();
    const failing = fakeMarket();
    failing.answerNext(status(500));
    const first = await start(store, {}, failing);
    const order = await first.client.createOrder(orderInput());
    first.sandbox.orders.approve(order.id);
    await first.sandbox.webhooks.idle();
    const [delivery] = first.sandbox.webhooks.list();
    expect(delivery).toMatchObject({ status: 'retrying', attempts: [{ responseStatus: 500 }] });
    await first.sandbox.closeAndFlush();

    const market = fakeMarket();
    const second = await start(store, {}, market);
    expect(second.sandbox.webhooks.get(delivery!.id)).toMatchObject({ status: 'retrying' });
    await second.sandbox.tick(second.sandbox.webhooks.schedule[1]!);
    expect(second.sandbox.webhooks.get(delivery!.id)).toMatchObject({ status: 'delivered' });
    expect(second.sandbox.webhooks.get(delivery!.id)?.attempts).toHaveLength(2);
    expect(market.payloads()).toEqual([
      { type: 'BNPL_ORDER_STATUS_UPDATED', order_id: order.id, order_status: 'APPROVED' },
    ]);
    // New deliveries continue the numbering rather than reuse a restored ID.
    second.sandbox.webhooks.emit('org-market', { type: 'SOMETHING_NEW' });
    expect(second.sandbox.webhooks.list().map((d) => d.id)).toEqual([delivery!.id, 'dlv_2']);
  });

  it('resumes a delivery whose first attempt was still due, and fails then retries one the restart cut off', async () => {
    const { store } = memoryRecords();
    const body = JSON.stringify({
      type: 'BNPL_ORDER_STATUS_UPDATED',
      order_id: 'ord_1',
      order_status: 'APPROVED',
    });
    const delivery = (id: string, status: string, attempts: unknown[]) => ({
      id,
      eventId: `evt_${id}`,
      eventType: 'BNPL_ORDER_STATUS_UPDATED',
      organizationId: 'org-market',
      url: 'https://market.test/v1/webhook',
      body,
      status,
      attempts,
      createdAt: 0,
      verbatim: false,
    });
    const cutOff = { number: 1, startedAt: 0, requestHeaders: {} };
    await store.save([
      { kind: 'delivery', id: 'dlv_7', body: delivery('dlv_7', 'pending', []) },
      { kind: 'delivery', id: 'dlv_8', body: delivery('dlv_8', 'in_flight', [cutOff]) },
    ]);
    const market = fakeMarket();
    const { sandbox } = await start(store, {}, market);
    await sandbox.webhooks.idle();
    expect(sandbox.webhooks.get('dlv_7')).toMatchObject({
      status: 'delivered',
      attempts: [{ outcome: 'success' }],
    });
    expect(sandbox.webhooks.get('dlv_8')).toMatchObject({
      status: 'retrying',
      attempts: [{ outcome: 'network_error', error: expect.stringMatching(/restarted/) }],
    });
    await sandbox.tick(sandbox.webhooks.schedule[1]!);
    expect(sandbox.webhooks.get('dlv_8')).toMatchObject({ status: 'delivered' });
    expect(sandbox.webhooks.get('dlv_8')?.attempts).toHaveLength(2);
    expect(market.received).toHaveLength(2);
  });

  it('ignores record kinds it does not know, even ones named like object members', async () => {
    const { store } = memoryRecords();
    await store.save([
      { kind: 'constructor', id: 'x', body: {} },
      { kind: 'toString', id: 'y', body: {} },
      { kind: 'from-a-newer-version', id: 'z', body: {} },
      {
        kind: 'transaction',
        id: 'txn_1',
        body: { id: 'txn_1', credifyId: 'crf_1', offerCode: 'o', status: 'PENDING' },
      },
    ]);
    const { sandbox } = await start(store);
    expect(sandbox.transactions.list()).toEqual([
      { id: 'txn_1', credifyId: 'crf_1', offerCode: 'o', status: 'PENDING' },
    ]);
  });
});

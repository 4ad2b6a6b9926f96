/**
 * The kit's webhook endpoint on this store, end to end: without `handleWebhook` the effect is one
 * statement outside any transaction; with it, the same statement inside the hook's transaction.
 */
import {
  createMarket,
  type MarketHooks,
  type ServiceClient,
  silentLogger,
  type WebhookHookInput,
} from '@bnpl-kit/core';
import { generateKeyPair, signWebhook } from '@bnpl-kit/core/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Store, StoreTransaction } from '../src/index.js';
import { backends, type TestDatabase, unique } from './helpers/backends.js';
import { newOrder } from './helpers/fixtures.js';

const PUBLIC_BASE = 'https://market.example.com';
const noService = new Proxy({} as ServiceClient, {
  get: () => () => Promise.reject(new Error('no service in this test')),
});

describe.each(backends)('the webhook endpoint on $name', (backend) => {
  let db: TestDatabase;
  let store: Store;
  let keys: Awaited<ReturnType<typeof generateKeyPair>>;
  beforeAll(async () => {
    db = await backend.open();
    store = db.store;
    keys = await generateKeyPair();
  });
  afterAll(() => db.close());

  function market(handleWebhook?: MarketHooks<StoreTransaction>['handleWebhook'], hookTimeoutMs?: number) {
    return createMarket({
      ...(hookTimeoutMs === undefined ? {} : { limits: { hookTimeoutMs } }),
      config: {
        mode: 'sandbox',
        integrationMode: 'basic',
        appId: 'test',
        publicBaseUrl: PUBLIC_BASE,
        servicePublicKey: keys.publicKey,
      },
      hooks: {
        authenticateInternalAPIClient: async () => null,
        authenticateInternalUser: async () => null,
        getBNPLCallback: () => `${PUBLIC_BASE}/done`,
        ...(handleWebhook ? { handleWebhook } : {}),
      },
      service: noService,
      store,
      logger: silentLogger,
    });
  }

  async function deliver(m: ReturnType<typeof market>, orderId: string, status: string, eventId: string) {
    const signed = await signWebhook({
      url: m.webhookUrl,
      body: { type: 'BNPL_ORDER_STATUS_UPDATED', order_id: orderId, order_status: status },
      signingKey: keys.seed,
      eventId,
    });
    const response = await m.handle(
      new Request(m.webhookUrl, { method: 'POST', headers: signed.headers, body: signed.body }),
    );
    return { status: response.status, body: (await response.json()) as Record<string, unknown> };
  }

  it('applies a status update without a hook, and acknowledges its repeat as a duplicate', async () => {
    const order = newOrder();
    await store.insertOrder(order);
    const m = market();
    const eventId = unique('evt');
    expect(await deliver(m, order.id, 'APPROVED', eventId)).toEqual({
      status: 200,
      body: { received: true },
    });
    expect((await store.findOrderById(order.id))?.status).toBe('APPROVED');
    expect(await deliver(m, order.id, 'APPROVED', eventId)).toEqual({
      status: 200,
      body: { received: true, duplicate: true },
    });
    // A late update is acknowledged and recorded, the status kept.
    const late = unique('evt');
    expect((await deliver(m, order.id, 'PENDING', late)).status).toBe(200);
    expect((await store.findOrderById(order.id))?.status).toBe('APPROVED');
    expect(await store.isEventProcessed(late)).toBe(true);
    expect((await store.listOrderStatusHistory(order.id)).map((h) => h.to)).toEqual(['PENDING', 'APPROVED']);
  });

  it('runs handleWebhook inside the transaction with the order as it now is; a throw undoes it all', async () => {
    const order = newOrder({ status: 'APPROVED' });
    await store.insertOrder(order);
    const seen: WebhookHookInput<StoreTransaction>[] = [];
    let fail = true;
    const m = market(async (input) => {
      seen.push(input);
      await input.tx.query('SELECT 1');
      if (fail) throw new Error('hook failed');
    });
    const eventId = unique('evt');
    expect((await deliver(m, order.id, 'DISBURSING', eventId)).status).toBe(500);
    expect((await store.findOrderById(order.id))?.status).toBe('APPROVED');
    expect(await store.isEventProcessed(eventId)).toBe(false);
    fail = false;
    expect((await deliver(m, order.id, 'DISBURSING', eventId)).status).toBe(200);
    expect(seen).toHaveLength(2);
    const last = seen[1]!;
    expect(last.order).toMatchObject({ id: order.id, status: 'DISBURSING', orderLines: order.orderLines });
    // `order` is read lazily but is an own property like the others: spread carries it.
    expect({ ...last }.order).toEqual(await store.findOrderById(order.id));
    expect(last.transition).toEqual({ changed: true, from: 'APPROVED', status: 'DISBURSING' });
    expect(last.readyForDisbursement).toBe(true);
    expect((await store.findOrderById(order.id))?.status).toBe('DISBURSING');
  });

  it('aborts a handleWebhook that outlives its timeout; its late tx.enqueueJob throws and commits nothing', async () => {
    const order = newOrder({ status: 'APPROVED' });
    await store.insertOrder(order);
    let releaseHook!: () => void;
    const hookMayGoOn = new Promise<void>((resolve) => {
      releaseHook = resolve;
    });
    let reportLateCall!: (outcome: unknown) => void;
    const lateCallOutcome = new Promise<unknown>((resolve) => {
      reportLateCall = resolve;
    });
    let hookSignal: AbortSignal | undefined;
    const dedupeKey = unique('late-job');
    const m = market(async ({ tx }, ctx) => {
      hookSignal = ctx.signal;
      await hookMayGoOn;
      const late = tx.enqueueJob({ kind: 'late', payload: {}, dedupeKey });
      reportLateCall(
        late.then(
          () => 'committed',
          (error: unknown) => error,
        ),
      );
      await late;
    }, 50);
    const eventId = unique('evt');
    // The hook is still waiting when the answer comes: the timeout answered it.
    expect((await deliver(m, order.id, 'DISBURSING', eventId)).status).toBe(500);
    expect(hookSignal?.aborted).toBe(true);
    expect(await store.isEventProcessed(eventId)).toBe(false);
    releaseHook();
    const outcome = await lateCallOutcome;
    expect(outcome).toBeInstanceOf(Error);
    expect((outcome as Error).message).toMatch(/transaction has already ended/);
    expect(await store.findJobByDedupeKey(dedupeKey)).toBeUndefined();
    expect(await store.listJobs({ kind: 'late' })).toEqual([]);
    expect(await store.isEventProcessed(eventId)).toBe(false);
    expect((await store.findOrderById(order.id))?.status).toBe('APPROVED');
  });
});

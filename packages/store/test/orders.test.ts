import { KitError } from '@bnpl-kit/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Store } from '../src/index.js';
import { backends, type TestDatabase, unique } from './helpers/backends.js';
import { newOrder, orderLine } from './helpers/fixtures.js';

describe.each(backends)('orders and webhook events on $name', (backend) => {
  let db: TestDatabase;
  let store: Store;
  let peer: Store;
  beforeAll(async () => {
    db = await backend.open();
    store = db.store;
    peer = await db.peer();
  });
  afterAll(() => db.close());

  it('stores an order exactly as given and finds it by either ID', async () => {
    const order = newOrder({
      totalAmount: { value: '999999999999999', currency: 'VND' },
      orderLines: [
        orderLine({ quantity: 1, unitPrice: { value: '999999999999999', currency: 'VND' } }),
        orderLine({ name: 'Phở "đặc biệt"', referenceId: 'sku-2' }),
      ],
    });
    const { order: stored, created } = await store.insertOrder(order);
    expect(created).toBe(true);
    expect(stored).toEqual({ ...order, createdAt: expect.any(Date), updatedAt: expect.any(Date) });
    expect(await store.findOrderById(order.id)).toEqual(stored);
    expect(await store.findOrderByReferenceId(order.referenceId)).toEqual(stored);
    expect(await store.findOrderById('missing')).toBeUndefined();
    expect(await store.findOrderByReferenceId('missing')).toBeUndefined();
    expect(await store.listOrderStatusHistory(order.id)).toEqual([
      { orderId: order.id, from: undefined, to: 'PENDING', source: 'create', changedAt: expect.any(Date) },
    ]);
  });

  it('inserts a reference ID once and returns the existing order after that', async () => {
    const first = newOrder();
    await store.insertOrder(first);
    const second = await store.insertOrder({
      ...newOrder(),
      referenceId: first.referenceId,
      requestFingerprint: 'x',
    });
    expect(second.created).toBe(false);
    expect(second.order.id).toBe(first.id);
    expect(second.order.requestFingerprint).toBe('fp-1');
  });

  it('lets exactly one of many concurrent inserts of one reference ID win', async () => {
    const referenceId = unique('ref');
    const attempts = Array.from({ length: 8 }, (_, i) =>
      newOrder({ referenceId, requestFingerprint: `fp-${i}` }),
    );
    const results = await Promise.all(attempts.map((o, i) => (i % 2 === 0 ? store : peer).insertOrder(o)));
    const winners = results.filter((r) => r.created);
    expect(winners).toHaveLength(1);
    for (const r of results) expect(r.order).toEqual(winners[0]!.order);
    const { rows } = await store.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM bnpl_orders WHERE reference_id = $1',
      [referenceId],
    );
    expect(rows[0]?.n).toBe(1);
  });

  it('refuses a known service order ID under another reference ID', async () => {
    const order = newOrder();
    await store.insertOrder(order);
    const clash = store.insertOrder({ ...newOrder(), id: order.id });
    await expect(clash).rejects.toBeInstanceOf(KitError);
    await expect(clash).rejects.toMatchObject({ code: 'conflict' });
  });

  it('commits a status change, its history and the processed event ID together', async () => {
    const order = newOrder();
    await store.insertOrder(order);
    const eventId = unique('evt');
    const result = await store.transaction(async (tx) => {
      const locked = await tx.getOrderForUpdate(order.id);
      expect(locked?.status).toBe('PENDING');
      expect(await tx.markEventProcessed(eventId, 'BNPL_ORDER_STATUS_UPDATED')).toBe(true);
      await tx.setOrderStatus({
        orderId: order.id,
        from: 'PENDING',
        to: 'APPROVED',
        source: `webhook:${eventId}`,
      });
      return (await tx.findOrderById(order.id))?.status;
    });
    expect(result).toBe('APPROVED');
    const after = await store.findOrderById(order.id);
    expect(after?.status).toBe('APPROVED');
    expect(after!.updatedAt.getTime()).toBeGreaterThanOrEqual(after!.createdAt.getTime());
    expect(await store.isEventProcessed(eventId)).toBe(true);
    expect((await store.listOrderStatusHistory(order.id)).map((h) => [h.from, h.to, h.source])).toEqual([
      [undefined, 'PENDING', 'create'],
      ['PENDING', 'APPROVED', `webhook:${eventId}`],
    ]);
    // The same event again: recorded already.
    expect(await store.transaction((tx) => tx.markEventProcessed(eventId, 'BNPL_ORDER_STATUS_UPDATED'))).toBe(
      false,
    );
  });

  it('refuses a status change from a status the order is not in, or of an unknown order', async () => {
    const order = newOrder();
    await store.insertOrder(order);
    await expect(
      store.transaction((tx) =>
        tx.setOrderStatus({ orderId: order.id, from: 'APPROVED', to: 'PAID', source: 't' }),
      ),
    ).rejects.toMatchObject({ code: 'conflict' });
    await expect(
      store.transaction((tx) =>
        tx.setOrderStatus({ orderId: 'nope', from: 'PENDING', to: 'APPROVED', source: 't' }),
      ),
    ).rejects.toMatchObject({ code: 'order_not_found' });
    expect(await store.transaction((tx) => tx.getOrderForUpdate('nope'))).toBeUndefined();
  });

  it('rolls everything back when the transaction throws: no event, no status change, no job', async () => {
    const order = newOrder();
    await store.insertOrder(order);
    const eventId = unique('evt');
    const dedupeKey = unique('disburse');
    const failure = new Error('hook failed');
    await expect(
      store.transaction(async (tx) => {
        await tx.getOrderForUpdate(order.id);
        expect(await tx.markEventProcessed(eventId, 'BNPL_ORDER_STATUS_UPDATED')).toBe(true);
        await tx.setOrderStatus({ orderId: order.id, from: 'PENDING', to: 'APPROVED', source: 'webhook' });
        await tx.enqueueJob({ kind: 'disburse', payload: { orderId: order.id }, dedupeKey });
        await tx.query('INSERT INTO bnpl_users (id) VALUES ($1)', [eventId]);
        throw failure;
      }),
    ).rejects.toBe(failure);
    expect(await store.isEventProcessed(eventId)).toBe(false);
    expect((await store.findOrderById(order.id))?.status).toBe('PENDING');
    expect(await store.listOrderStatusHistory(order.id)).toHaveLength(1);
    expect(await store.findJobByDedupeKey(dedupeKey)).toBeUndefined();
    expect(await store.findUserById(eventId)).toBeUndefined();
    // The event can be processed later, as the service's retry would.
    expect(await store.transaction((tx) => tx.markEventProcessed(eventId, 'BNPL_ORDER_STATUS_UPDATED'))).toBe(
      true,
    );
  });

  it('processes one event ID once when many transactions record it concurrently', async () => {
    const eventId = unique('evt');
    const results = await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        (i % 2 === 0 ? store : peer).transaction((tx) => tx.markEventProcessed(eventId, 'T')),
      ),
    );
    expect(results.filter(Boolean)).toHaveLength(1);
  });

  it('makes a second delivery wait for the first transaction, then see the event as processed', async () => {
    const order = newOrder();
    await store.insertOrder(order);
    const eventId = unique('evt');
    let releaseFirst!: () => void;
    const firstMayCommit = new Promise<void>((resolve) => {
      releaseFirst = resolve;
    });
    let firstMarked!: (pid: number) => void;
    const firstHasMarked = new Promise<number>((resolve) => {
      firstMarked = resolve;
    });

    const first = store.transaction(async (tx) => {
      const { rows } = await tx.query<{ pid: number }>('SELECT pg_backend_pid() AS pid');
      await tx.getOrderForUpdate(order.id);
      const marked = await tx.markEventProcessed(eventId, 'BNPL_ORDER_STATUS_UPDATED');
      await tx.setOrderStatus({ orderId: order.id, from: 'PENDING', to: 'APPROVED', source: 'first' });
      firstMarked(rows[0]!.pid);
      await firstMayCommit;
      return marked;
    });
    const pid = await firstHasMarked;
    const order2: string[] = [];
    const second = peer.transaction(async (tx) => {
      const marked = await tx.markEventProcessed(eventId, 'BNPL_ORDER_STATUS_UPDATED');
      order2.push('second marked');
      return { marked, status: (await tx.getOrderForUpdate(order.id))?.status };
    });
    await db.waitUntilBlockedBy(pid);
    expect(order2).toEqual([]);
    releaseFirst();
    expect(await first).toBe(true);
    expect(await second).toEqual({ marked: false, status: 'APPROVED' });
  });

  it('refuses the store itself inside its own transaction, and nested transactions', async () => {
    await expect(store.transaction(() => store.findOrderById('x'))).rejects.toThrow(/use the `tx`/);
    await expect(store.transaction(() => store.transaction(async () => 1))).rejects.toThrow(
      /cannot be nested/,
    );
    // After the transaction, the store works again from the same async context.
    expect(await store.transaction(async () => 'done')).toBe('done');
    expect(await store.findOrderById('x')).toBeUndefined();
  });
});

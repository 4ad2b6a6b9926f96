import { KitError } from '@bnpl-kit/core';
import { orderLineFixture } from '@bnpl-kit/core/testing';
import { describe, expect, it } from 'vitest';
import { backends, databaseForSuite, deferred, unique } from './helpers/backends.js';
import { newOrder } from './helpers/fixtures.js';

describe.each(backends)('orders and webhook events on $name', (backend) => {
  const suite = databaseForSuite(backend);

  it('stores an order exactly as given and finds it by either ID', async () => {
    const order = newOrder({
      totalAmount: { value: '999999999999999', currency: 'VND' },
      orderLines: [
        orderLineFixture({ quantity: 1, unitPrice: { value: '999999999999999', currency: 'VND' } }),
        orderLineFixture({ name: 'Phở "đặc biệt"', referenceId: 'sku-2' }),
      ],
    });
    const { order: stored, created } = await suite.store.insertOrder(order);
    expect(created).toBe(true);
    expect(stored).toEqual({ ...order, createdAt: expect.any(Date), updatedAt: expect.any(Date) });
    expect(await suite.store.findOrderById(order.id)).toEqual(stored);
    expect(await suite.store.findOrderByReferenceId(order.referenceId)).toEqual(stored);
    expect(await suite.store.findOrderById('missing')).toBeUndefined();
    expect(await suite.store.findOrderByReferenceId('missing')).toBeUndefined();
    expect(await suite.store.listOrderStatusHistory(order.id)).toEqual([
      { orderId: order.id, from: undefined, to: 'PENDING', source: 'create', changedAt: expect.any(Date) },
    ]);
  });

  it('returns its own copy of the inserted order lines, equal to what a read gives', async () => {
    const order = newOrder();
    const { order: stored } = await suite.store.insertOrder(order);
    // The insert no longer reads the lines back from the database; the caller must still not
    // share them with the answer.
    expect(stored.orderLines).not.toBe(order.orderLines);
    const sent = structuredClone(order.orderLines);
    order.orderLines[0]!.name = 'changed after the insert';
    expect(stored.orderLines).toEqual(sent);
    expect(await suite.store.findOrderById(order.id)).toEqual(stored);
  });

  it('inserts a reference ID once and returns the existing order after that', async () => {
    const first = newOrder();
    await suite.store.insertOrder(first);
    const second = await suite.store.insertOrder({
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
    const results = await Promise.all(
      attempts.map((o, i) => (i % 2 === 0 ? suite.store : suite.peer).insertOrder(o)),
    );
    const winners = results.filter((r) => r.created);
    expect(winners).toHaveLength(1);
    for (const r of results) expect(r.order).toEqual(winners[0]!.order);
    const { rows } = await suite.store.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM bnpl_orders WHERE reference_id = $1',
      [referenceId],
    );
    expect(rows[0]?.n).toBe(1);
  });

  it('stores one order when concurrent creates of it carry the same service order ID and reference ID', async () => {
    // The race of concurrent POST /v1/orders of one body: the service answers each with one order,
    // and a loser could meet the winner's row in the primary key (not ON CONFLICT's index): a 500.
    for (let round = 0; round < 20; round++) {
      const order = newOrder({ referenceId: unique('ref-same') });
      const results = await Promise.all(
        Array.from({ length: 6 }, (_, i) =>
          (i % 2 === 0 ? suite.store : suite.peer).insertOrder({ ...order }),
        ),
      );
      expect(results.filter((r) => r.created)).toHaveLength(1);
      for (const r of results) expect(r.order.id).toBe(order.id);
    }
  });

  it('refuses a known service order ID under another reference ID', async () => {
    const order = newOrder();
    await suite.store.insertOrder(order);
    const clash = suite.store.insertOrder({ ...newOrder(), id: order.id });
    await expect(clash).rejects.toBeInstanceOf(KitError);
    await expect(clash).rejects.toMatchObject({ code: 'conflict' });
  });

  it('commits a status change, its history and the processed event ID together', async () => {
    const order = newOrder();
    await suite.store.insertOrder(order);
    const eventId = unique('evt');
    const result = await suite.store.transaction(async (tx) => {
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
    const after = await suite.store.findOrderById(order.id);
    expect(after?.status).toBe('APPROVED');
    expect(after!.updatedAt.getTime()).toBeGreaterThanOrEqual(after!.createdAt.getTime());
    expect(await suite.store.isEventProcessed(eventId)).toBe(true);
    expect((await suite.store.listOrderStatusHistory(order.id)).map((h) => [h.from, h.to, h.source])).toEqual(
      [
        [undefined, 'PENDING', 'create'],
        ['PENDING', 'APPROVED', `webhook:${eventId}`],
      ],
    );
    // The same event again: recorded already.
    expect(
      await suite.store.transaction((tx) => tx.markEventProcessed(eventId, 'BNPL_ORDER_STATUS_UPDATED')),
    ).toBe(false);
  });

  it('refuses a status change from a status the order is not in, or of an unknown order', async () => {
    const order = newOrder();
    await suite.store.insertOrder(order);
    await expect(
      suite.store.transaction((tx) =>
        tx.setOrderStatus({ orderId: order.id, from: 'APPROVED', to: 'PAID', source: 't' }),
      ),
    ).rejects.toMatchObject({ code: 'conflict' });
    await expect(
      suite.store.transaction((tx) =>
        tx.setOrderStatus({ orderId: 'nope', from: 'PENDING', to: 'APPROVED', source: 't' }),
      ),
    ).rejects.toMatchObject({ code: 'order_not_found' });
    expect(await suite.store.transaction((tx) => tx.getOrderForUpdate('nope'))).toBeUndefined();
  });

  it('rolls everything back when the transaction throws: no event, no status change, no job', async () => {
    const order = newOrder();
    await suite.store.insertOrder(order);
    const eventId = unique('evt');
    const dedupeKey = unique('disburse');
    const failure = new Error('hook failed');
    await expect(
      suite.store.transaction(async (tx) => {
        await tx.getOrderForUpdate(order.id);
        expect(await tx.markEventProcessed(eventId, 'BNPL_ORDER_STATUS_UPDATED')).toBe(true);
        await tx.setOrderStatus({ orderId: order.id, from: 'PENDING', to: 'APPROVED', source: 'webhook' });
        await tx.enqueueJob({ kind: 'disburse', payload: { orderId: order.id }, dedupeKey });
        await tx.query('INSERT INTO bnpl_users (id) VALUES ($1)', [eventId]);
        throw failure;
      }),
    ).rejects.toBe(failure);
    expect(await suite.store.isEventProcessed(eventId)).toBe(false);
    expect((await suite.store.findOrderById(order.id))?.status).toBe('PENDING');
    expect(await suite.store.listOrderStatusHistory(order.id)).toHaveLength(1);
    expect(await suite.store.findJobByDedupeKey(dedupeKey)).toBeUndefined();
    expect(await suite.store.findUserById(eventId)).toBeUndefined();
    // The event can be processed later, as the service's retry would.
    expect(
      await suite.store.transaction((tx) => tx.markEventProcessed(eventId, 'BNPL_ORDER_STATUS_UPDATED')),
    ).toBe(true);
  });

  it('processes one event ID once when many transactions record it concurrently', async () => {
    const eventId = unique('evt');
    const results = await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        (i % 2 === 0 ? suite.store : suite.peer).transaction((tx) => tx.markEventProcessed(eventId, 'T')),
      ),
    );
    expect(results.filter(Boolean)).toHaveLength(1);
  });

  it('makes a second delivery wait for the first transaction, then see the event as processed', async () => {
    const order = newOrder();
    await suite.store.insertOrder(order);
    const eventId = unique('evt');
    const firstMayCommit = deferred();
    const firstHasMarked = deferred<number>();

    const first = suite.store.transaction(async (tx) => {
      const { rows } = await tx.query<{ pid: number }>('SELECT pg_backend_pid() AS pid');
      await tx.getOrderForUpdate(order.id);
      const marked = await tx.markEventProcessed(eventId, 'BNPL_ORDER_STATUS_UPDATED');
      await tx.setOrderStatus({ orderId: order.id, from: 'PENDING', to: 'APPROVED', source: 'first' });
      firstHasMarked.resolve(rows[0]!.pid);
      await firstMayCommit.promise;
      return marked;
    });
    const pid = await firstHasMarked.promise;
    const order2: string[] = [];
    const second = suite.peer.transaction(async (tx) => {
      const marked = await tx.markEventProcessed(eventId, 'BNPL_ORDER_STATUS_UPDATED');
      order2.push('second marked');
      return { marked, status: (await tx.getOrderForUpdate(order.id))?.status };
    });
    await suite.db.waitUntilBlockedBy(pid);
    expect(order2).toEqual([]);
    firstMayCommit.resolve();
    expect(await first).toBe(true);
    expect(await second).toEqual({ marked: false, status: 'APPROVED' });
  });

  it('refuses the store itself inside its own transaction, and nested transactions', async () => {
    await expect(suite.store.transaction(() => suite.store.findOrderById('x'))).rejects.toThrow(
      /use the `tx`/,
    );
    await expect(suite.store.transaction(() => suite.store.transaction(async () => 1))).rejects.toThrow(
      /cannot be nested/,
    );
    // After the transaction, the store works again from the same async context.
    expect(await suite.store.transaction(async () => 'done')).toBe('done');
    expect(await suite.store.findOrderById('x')).toBeUndefined();
  });
});

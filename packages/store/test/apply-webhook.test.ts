import type { OrderStatus, WebhookEventEffect } from '@bnpl-kit/core';
import { forwardSourcesOf } from '@bnpl-kit/core/wire';
import { shapeProblem } from '@bnpl-kit/v8-shapes';
import { describe, expect, it } from 'vitest';
import type { Store } from '../src/index.js';
import { backends, databaseForSuite, deferred, unique } from './helpers/backends.js';
import { newOrder } from './helpers/fixtures.js';

function statusEvent(orderId: string, to: OrderStatus, withOrder = false): WebhookEventEffect {
  const eventId = unique('evt');
  return {
    eventId,
    eventType: 'BNPL_ORDER_STATUS_UPDATED',
    orderId,
    statusUpdate: { to, allowedFrom: forwardSourcesOf(to), source: `webhook:${eventId}` },
    withOrder,
  };
}

describe.each(backends)('a webhook applied as one statement on $name', (backend) => {
  const suite = databaseForSuite(backend);

  async function stored(status: OrderStatus = 'PENDING') {
    const order = newOrder({ status });
    await suite.store.insertOrder(order);
    return order;
  }

  const history = async (orderId: string) =>
    (await suite.store.listOrderStatusHistory(orderId)).map((h) => [h.from, h.to, h.source]);

  it('records the event, moves the status forward and writes the history row', async () => {
    const order = await stored();
    const effect = statusEvent(order.id, 'APPROVED');
    expect(await suite.store.applyWebhookEvent(effect)).toEqual({
      duplicate: false,
      previousStatus: 'PENDING',
      order: undefined,
    });
    expect((await suite.store.findOrderById(order.id))?.status).toBe('APPROVED');
    expect(await suite.store.isEventProcessed(effect.eventId)).toBe(true);
    expect(await history(order.id)).toEqual([
      [undefined, 'PENDING', 'create'],
      ['PENDING', 'APPROVED', `webhook:${effect.eventId}`],
    ]);
  });

  it('does nothing at all for an event ID already recorded', async () => {
    const order = await stored();
    const effect = statusEvent(order.id, 'CANCELED');
    await suite.store.transaction((tx) => tx.markEventProcessed(effect.eventId, effect.eventType));
    expect(await suite.store.applyWebhookEvent(effect)).toEqual({
      duplicate: true,
      previousStatus: undefined,
      order: undefined,
    });
    expect((await suite.store.findOrderById(order.id))?.status).toBe('PENDING');
    expect(await history(order.id)).toHaveLength(1);
  });

  it('keeps the stored status on a late update but still records the event', async () => {
    const order = await stored('PAID');
    const effect = statusEvent(order.id, 'APPROVED');
    expect(await suite.store.applyWebhookEvent(effect)).toMatchObject({
      duplicate: false,
      previousStatus: 'PAID',
    });
    expect((await suite.store.findOrderById(order.id))?.status).toBe('PAID');
    expect(await history(order.id)).toHaveLength(1);
    expect(await suite.store.isEventProcessed(effect.eventId)).toBe(true);
  });

  it('records an event naming no stored order, or no order at all', async () => {
    const missing = statusEvent(unique('nope'), 'APPROVED');
    expect(await suite.store.applyWebhookEvent(missing)).toEqual({
      duplicate: false,
      previousStatus: undefined,
      order: undefined,
    });
    const noOrder: WebhookEventEffect = {
      eventId: unique('evt'),
      eventType: 'SOMETHING_NEW',
      orderId: undefined,
      statusUpdate: undefined,
      withOrder: true,
    };
    expect(await suite.store.applyWebhookEvent(noOrder)).toEqual({
      duplicate: false,
      previousStatus: undefined,
      order: undefined,
    });
    expect(await suite.store.isEventProcessed(missing.eventId)).toBe(true);
    expect(await suite.store.isEventProcessed(noOrder.eventId)).toBe(true);
  });

  it('returns the whole order as it now is inside a transaction, and rolls back with it', async () => {
    const order = await stored('APPROVED');
    const effect = statusEvent(order.id, 'PAID', true);
    const failure = new Error('hook failed');
    let seen: Awaited<ReturnType<Store['applyWebhookEvent']>> | undefined;
    await expect(
      suite.store.transaction(async (tx) => {
        seen = await tx.applyWebhookEvent(effect);
        throw failure;
      }),
    ).rejects.toBe(failure);
    expect(seen).toEqual({
      duplicate: false,
      previousStatus: 'APPROVED',
      order: { ...order, status: 'PAID', createdAt: expect.any(Date), updatedAt: expect.any(Date) },
    });
    expect((await suite.store.findOrderById(order.id))?.status).toBe('APPROVED');
    expect(await suite.store.isEventProcessed(effect.eventId)).toBe(false);
    // A non-status event with an order: the order comes back unchanged.
    const requirement: WebhookEventEffect = {
      ...effect,
      eventId: unique('evt'),
      eventType: 'BNPL_DISBURSEMENT_REQUIREMENT_UPDATED',
      statusUpdate: undefined,
    };
    const applied = await suite.store.transaction((tx) => tx.applyWebhookEvent(requirement));
    expect(applied.order?.status).toBe('APPROVED');
    expect(applied.order?.orderLines).toEqual(order.orderLines);
  });

  it('returns the order exactly as a read of it gives, timestamps included, moved or not', async () => {
    const order = await stored('APPROVED');
    // Moved: the order as committed afterwards (the new status and updated_at).
    const moved = await suite.store.transaction((tx) =>
      tx.applyWebhookEvent(statusEvent(order.id, 'PAID', true)),
    );
    expect(moved.order).toEqual(await suite.store.findOrderById(order.id));
    // Not moved (a late update): the order as stored, untouched.
    const late = await suite.store.transaction((tx) =>
      tx.applyWebhookEvent(statusEvent(order.id, 'APPROVED', true)),
    );
    expect(late.order).toEqual(await suite.store.findOrderById(order.id));
    expect(late.order?.status).toBe('PAID');
    // An own enumerable property like the others: spread and JSON carry it.
    expect({ ...late }.order).toEqual(late.order);
    expect(JSON.parse(JSON.stringify(late)).order.id).toBe(order.id);
    expect(Object.keys(late)).toEqual(['duplicate', 'previousStatus', 'order']);
  });

  it('gives every result one hidden class with fast properties, order read or not (one per webhook)', async () => {
    const results: object[] = [];
    for (const to of ['APPROVED', 'PAID'] as const) {
      const order = await stored();
      results.push(
        await suite.store.transaction((tx) => tx.applyWebhookEvent(statusEvent(order.id, to, true))),
      );
    }
    expect(shapeProblem(results)).toBeUndefined();
    void (results[0] as { order: unknown }).order;
    expect(shapeProblem(results)).toBeUndefined();
  });

  it('applies one event ID exactly once under concurrent deliveries from two pools', async () => {
    const order = await stored();
    const effect = statusEvent(order.id, 'APPROVED');
    const results = await Promise.all(
      Array.from({ length: 8 }, (_, i) => (i % 2 === 0 ? suite.store : suite.peer).applyWebhookEvent(effect)),
    );
    expect(results.filter((r) => !r.duplicate)).toHaveLength(1);
    expect(await history(order.id)).toHaveLength(2);
  });

  it('converges on the latest status whatever order concurrent updates arrive in', async () => {
    const order = await stored();
    const targets: OrderStatus[] = ['PAID', 'APPROVED', 'DISBURSING', 'APPROVED', 'PAID'];
    await Promise.all(
      targets.map((to, i) =>
        (i % 2 === 0 ? suite.store : suite.peer).applyWebhookEvent(statusEvent(order.id, to)),
      ),
    );
    expect((await suite.store.findOrderById(order.id))?.status).toBe('PAID');
    // Each history row starts where the previous one ended: no update read a stale status.
    const rows = await suite.store.listOrderStatusHistory(order.id);
    for (let i = 1; i < rows.length; i++) expect(rows[i]!.from).toBe(rows[i - 1]!.to);
  });

  it('makes a concurrent delivery of the same event wait, then see it as a duplicate', async () => {
    const order = await stored();
    const effect = statusEvent(order.id, 'APPROVED');
    const mayCommit = deferred();
    const firstApplied = deferred<number>();
    const first = suite.store.transaction(async (tx) => {
      const { rows } = await tx.query<{ pid: number }>('SELECT pg_backend_pid() AS pid');
      const result = await tx.applyWebhookEvent(effect);
      firstApplied.resolve(rows[0]!.pid);
      await mayCommit.promise;
      return result.duplicate;
    });
    const pid = await firstApplied.promise;
    const second = suite.peer.applyWebhookEvent(effect);
    await suite.db.waitUntilBlockedBy(pid);
    mayCommit.resolve();
    expect(await first).toBe(false);
    expect((await second).duplicate).toBe(true);
    expect(await history(order.id)).toHaveLength(2);
  });
});

/**
 * A `tx` works only while its transaction is open: every operation on it after COMMIT or ROLLBACK
 * throws and writes nothing (on PostgreSQL it would otherwise run on a connection that is back in
 * the pool, maybe inside another request's transaction; on PGlite outside any transaction).
 */
import { describe, expect, it } from 'vitest';
import type { StoreTransaction } from '../src/index.js';
import { backends, databaseForSuite, unique } from './helpers/backends.js';
import { newOrder } from './helpers/fixtures.js';

/** One plausible call of every operation a `tx` has; the test below checks the list is complete. */
function everyOperation(tx: StoreTransaction, key: string): Record<string, () => Promise<unknown>> {
  const order = newOrder({ id: `${key}-order`, referenceId: `${key}-ref` });
  return {
    query: () => tx.query('SELECT 1'),
    findOrderById: () => tx.findOrderById(order.id),
    findOrderByReferenceId: () => tx.findOrderByReferenceId(order.referenceId),
    insertOrder: () => tx.insertOrder(order),
    listOrderStatusHistory: () => tx.listOrderStatusHistory(order.id),
    isEventProcessed: () => tx.isEventProcessed(`${key}-evt`),
    applyWebhookEvent: () =>
      tx.applyWebhookEvent({
        eventId: `${key}-evt`,
        eventType: 'BNPL_ORDER_STATUS_UPDATED',
        orderId: order.id,
        statusUpdate: undefined,
        withOrder: true,
      }),
    getOrderForUpdate: () => tx.getOrderForUpdate(order.id),
    setOrderStatus: () =>
      tx.setOrderStatus({ orderId: order.id, from: 'PENDING', to: 'APPROVED', source: key }),
    markEventProcessed: () => tx.markEventProcessed(`${key}-evt`, 'BNPL_ORDER_STATUS_UPDATED'),
    enqueueJob: () => tx.enqueueJob({ kind: 'scope-test', payload: {}, dedupeKey: `${key}-job` }),
    claimNextJob: () => tx.claimNextJob(`${key}-worker`, { kinds: ['scope-test'], lockMs: 1_000 }),
    completeJob: () => tx.completeJob(`${key}-job`),
    renewJobLease: () =>
      tx.renewJobLease(`${key}-job`, { workerId: `${key}-worker`, attempt: 1, lockMs: 1_000 }),
    failJob: () => tx.failJob(`${key}-job`, new Error('x')),
    findJob: () => tx.findJob(`${key}-job`),
    findJobByDedupeKey: () => tx.findJobByDedupeKey(`${key}-job`),
    listJobs: () => tx.listJobs({ kind: 'scope-test' }),
    requeueJob: () => tx.requeueJob(`${key}-job`),
    countJobs: () => tx.countJobs(),
    claimStaleOrders: () => tx.claimStaleOrders({ staleForMs: 60_000, limit: 1 }),
    pruneFinished: () => tx.pruneFinished(60_000),
    createUser: () => tx.createUser({ id: `${key}-user` }),
    ensureUser: () => tx.ensureUser({ id: `${key}-user` }),
    findUserById: () => tx.findUserById(`${key}-user`),
    findUserByCredifyId: () => tx.findUserByCredifyId(`${key}-credify`),
    findUserBySessionToken: () => tx.findUserBySessionToken(`${key}-token`),
    setUserCredifyId: () => tx.setUserCredifyId(`${key}-user`, `${key}-credify`),
    updateUser: () => tx.updateUser(`${key}-user`, { customClaims: {} }),
    setUserSessionToken: () => tx.setUserSessionToken(`${key}-user`, `${key}-token`),
    upsertCommitments: () => tx.upsertCommitments(`${key}-user`, { scope: 'c' }),
    listCommitments: () => tx.listCommitments(`${key}-user`),
  };
}

describe.each(backends)('a tx after its transaction on $name', (backend) => {
  const suite = databaseForSuite(backend);

  for (const ending of ['COMMIT', 'ROLLBACK'] as const) {
    it(`refuses every operation after ${ending}, and writes nothing`, async () => {
      const { store } = suite;
      const key = unique(ending.toLowerCase());
      let kept: StoreTransaction | undefined;
      const run = store.transaction(async (tx) => {
        kept = tx;
        if (ending === 'ROLLBACK') throw new Error('roll back');
      });
      if (ending === 'ROLLBACK') await expect(run).rejects.toThrow('roll back');
      else await run;
      const tx = kept!;
      const calls = everyOperation(tx, key);
      // `for…in`: the operations are getters on the tx's prototype, built on first use.
      const operations: string[] = [];
      for (const name in tx) if (typeof (tx as never)[name] === 'function') operations.push(name);
      expect(Object.keys(calls).sort()).toEqual(operations.sort());
      for (const [name, call] of Object.entries(calls)) {
        await expect(call(), name).rejects.toThrow(/transaction has already ended/);
      }
      expect(await store.findOrderById(`${key}-order`)).toBeUndefined();
      expect(await store.findJobByDedupeKey(`${key}-job`)).toBeUndefined();
      expect(await store.isEventProcessed(`${key}-evt`)).toBe(false);
      expect(await store.findUserById(`${key}-user`)).toBeUndefined();
    });
  }

  it('gives every transaction its own tx: one kept from before cannot act in the next', async () => {
    const { store } = suite;
    let first: StoreTransaction | undefined;
    await store.transaction(async (tx) => {
      first = tx;
    });
    const key = unique('next');
    await store.transaction(async (tx) => {
      expect(tx).not.toBe(first);
      await expect(
        first!.enqueueJob({ kind: 'scope-test', payload: {}, dedupeKey: `${key}-job` }),
      ).rejects.toThrow(/transaction has already ended/);
      await tx.query('SELECT 1');
    });
    expect(await store.findJobByDedupeKey(`${key}-job`)).toBeUndefined();
  });
});

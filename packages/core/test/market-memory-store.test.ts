import { describe, expect, it } from 'vitest';
import { createMemoryStore } from '../src/market/memory-store.js';

const newOrder = (id: string, referenceId = `ref-${id}`) => ({
  id,
  referenceId,
  totalAmount: { value: '100', currency: 'VND' as const },
  orderLines: [],
  status: 'PENDING' as const,
  requestFingerprint: 'fp',
});

describe('createMemoryStore', () => {
  it('inserts once per reference ID and returns the existing order after that', async () => {
    const store = createMemoryStore();
    expect((await store.insertOrder(newOrder('o1', 'r'))).created).toBe(true);
    const again = await store.insertOrder(newOrder('o2', 'r'));
    expect(again).toMatchObject({ created: false, order: { id: 'o1' } });
    expect(await store.findOrderByReferenceId('r')).toMatchObject({ id: 'o1' });
    expect(await store.findOrderById('o2')).toBeUndefined();
  });

  it('commits the writes of a transaction together', async () => {
    const store = createMemoryStore();
    await store.insertOrder(newOrder('o1'));
    await store.transaction(async (tx) => {
      expect(await tx.markEventProcessed('e1', 'T')).toBe(true);
      await tx.setOrderStatus({ orderId: 'o1', from: 'PENDING', to: 'APPROVED', source: 's' });
      expect((await tx.getOrderForUpdate('o1'))?.status).toBe('APPROVED');
      // Not visible outside before the commit.
      expect((await store.findOrderById('o1'))?.status).toBe('PENDING');
    });
    expect((await store.findOrderById('o1'))?.status).toBe('APPROVED');
    expect(store.processedEvents()).toEqual([{ eventId: 'e1', eventType: 'T' }]);
  });

  it('rolls every write back when the work throws', async () => {
    const store = createMemoryStore();
    await store.insertOrder(newOrder('o1'));
    await expect(
      store.transaction(async (tx) => {
        await tx.markEventProcessed('e1', 'T');
        await tx.setOrderStatus({ orderId: 'o1', from: 'PENDING', to: 'APPROVED', source: 's' });
        throw new Error('boom');
      }),
    ).rejects.toThrow('boom');
    expect((await store.findOrderById('o1'))?.status).toBe('PENDING');
    expect(store.processedEvents()).toEqual([]);
    expect(store.statusChanges()).toEqual([]);
  });

  it('runs transactions one at a time, so a second delivery sees the first as processed', async () => {
    const store = createMemoryStore();
    const log: string[] = [];
    let release!: () => void;
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const first = store.transaction(async (tx) => {
      log.push('first:start');
      const fresh = await tx.markEventProcessed('e', 'T');
      await gate;
      log.push('first:end');
      return fresh;
    });
    const second = store.transaction(async (tx) => {
      log.push('second:start');
      return tx.markEventProcessed('e', 'T');
    });
    await Promise.resolve();
    release();
    expect(await Promise.all([first, second])).toEqual([true, false]);
    expect(log).toEqual(['first:start', 'first:end', 'second:start']);
  });

  it('keeps working after a failed transaction and refuses use of a finished one', async () => {
    const store = createMemoryStore();
    let leaked: Parameters<Parameters<typeof store.transaction>[0]>[0] | undefined;
    await store.transaction(async (tx) => {
      leaked = tx;
    });
    await expect(leaked!.markEventProcessed('late', 'T')).rejects.toThrow('already ended');
    await expect(store.transaction(async () => Promise.reject(new Error('x')))).rejects.toThrow('x');
    expect(await store.transaction(async (tx) => tx.markEventProcessed('e2', 'T'))).toBe(true);
  });

  it('hands out copies, so callers cannot change stored orders by accident', async () => {
    const store = createMemoryStore();
    await store.insertOrder(newOrder('o1'));
    const copy = await store.findOrderById('o1');
    copy!.status = 'PAID';
    expect((await store.findOrderById('o1'))?.status).toBe('PENDING');
  });
});

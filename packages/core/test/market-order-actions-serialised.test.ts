/**
 * Actions on one order are serialised (R-EP-06, R-EP-08, R-STATE-06): a cancel and a disburse sent
 * together must not both reach the service. Certify's `concurrency.cancel-disburse` found both did;
 * here the fake service holds the first call open, so the second request surely arrives meanwhile.
 */
import { describe, expect, it } from 'vitest';
import { KitError } from '../src/errors.js';
import type { ServiceOrder } from '../src/service/types.js';
import { API_TOKEN, call, insertOrder, makeMarket } from './market-support.js';

type Action = 'cancel' | 'disburse';

async function eventLoopTurns(count: number): Promise<void> {
  for (let i = 0; i < count; i++) await new Promise<void>((resolve) => setImmediate(resolve));
}
const OPERATION = { cancel: 'cancelOrder', disburse: 'disburseOrder' } as const;

/** A market whose service answers `first`'s call only when the test releases it. */
async function marketHoldingFirstCall(first: Action, outcome: 'answer' | 'refuse' = 'answer') {
  const t = await makeMarket();
  await insertOrder(t.store, 'o1', 'APPROVED');
  t.service.orders.set('o1', {
    id: 'o1',
    referenceId: 'ref-o1',
    totalAmount: { value: '300000', currency: 'VND' },
    orderLines: [],
    orderStatus: 'APPROVED',
  });
  let release!: () => void;
  const released = new Promise<void>((resolve) => {
    release = resolve;
  });
  let reached!: () => void;
  const firstReached = new Promise<void>((resolve) => {
    reached = resolve;
  });
  // The first call is released once the second request reached the service (the bug) or had every
  // turn it needed to (a few event-loop turns: the memory store answers without I/O).
  let secondArrived!: () => void;
  const reachedService = new Promise<void>((resolve) => {
    secondArrived = resolve;
  });
  const second = Promise.race([reachedService, eventLoopTurns(20)]);
  const operation = OPERATION[first];
  for (const name of Object.values(OPERATION)) {
    const forward = t.service[name].bind(t.service) as (...args: never[]) => Promise<ServiceOrder>;
    let calls = 0;
    t.service[name] = (async (...args: never[]) => {
      if (name !== operation || ++calls > 1) {
        secondArrived();
        return forward(...args);
      }
      reached();
      await released;
      if (outcome === 'refuse') throw new KitError('upstream_rejected', 'the service refused it');
      return forward(...args);
    }) as never;
  }
  const send = (action: Action) =>
    call(t.market, `/v1/orders/o1/${action}`, { method: 'POST', token: API_TOKEN });
  return { ...t, send, release, firstReached, second };
}

const serviceActions = (calls: { op: string }[]) =>
  calls.filter((c) => c.op === 'cancelOrder' || c.op === 'disburseOrder').map((c) => c.op);

describe('cancel and disburse of one order sent together', () => {
  it.each([
    ['cancel', 'disburse'],
    ['disburse', 'cancel'],
  ] as const)(
    '%s first: only it reaches the service, the %s is a 409 invalid_transition',
    async (first, second) => {
      const t = await marketHoldingFirstCall(first);
      const winner = t.send(first);
      await t.firstReached;
      const loser = t.send(second);
      t.release();
      const [won, lost] = await Promise.all([winner, loser]);
      expect(won.status).toBe(202);
      expect(lost.status).toBe(409);
      expect(await lost.json()).toMatchObject({ code: 'invalid_transition' });
      expect(serviceActions(t.service.calls)).toEqual([OPERATION[first]]);
      expect(t.store.orders()[0]?.status).toBe(first === 'cancel' ? 'CANCELED' : 'PAID');
    },
  );

  it('a refused first action leaves the order as it was and lets the second one act (R-EP-07)', async () => {
    const t = await marketHoldingFirstCall('cancel', 'refuse');
    const refused = t.send('cancel');
    await t.firstReached;
    const next = t.send('disburse');
    await t.second;
    t.release();
    const [cancel, disburse] = await Promise.all([refused, next]);
    expect(cancel.status).toBe(502);
    expect(disburse.status).toBe(202);
    expect(serviceActions(t.service.calls)).toEqual(['disburseOrder']);
    expect(t.store.statusChanges().map((c) => [c.from, c.to, c.source])).toEqual([
      ['APPROVED', 'PAID', 'disburse'],
    ]);
  });

  it('two disburses sent together pay once: the second sees the order PAID (409)', async () => {
    const t = await marketHoldingFirstCall('disburse');
    const first = t.send('disburse');
    await t.firstReached;
    const second = t.send('disburse');
    await t.second;
    t.release();
    const answers = await Promise.all([first, second]);
    expect(answers.map((a) => a.status)).toEqual([202, 409]);
    expect(serviceActions(t.service.calls)).toEqual(['disburseOrder']);
  });
});

/**
 * WIRE §5 R-EP-05's reconciliation, whole: a status read reconciles the market's record forward with
 * the service's status, along §3's arrows. The state table (webhook-state-table.ts) proves the
 * webhook path with the service holding every order PENDING, where reconciling moves nothing; this
 * proves the read path, with the service ahead of the record, level with it, or somewhere the record
 * cannot go. Every pair of a stored status (certify's own webhook, from PENDING) and a status the
 * service can reach (the provider's buttons, its own webhooks dropped), generated from core's table:
 * the read must answer `transition(stored, service)`.
 *
 * A market whose read path moves "forward" by the list order of the six (DISBURSING → CANCELED) or
 * takes the service's status as it stands passes the webhook table and fails here.
 */
import { ORDER_STATUSES, type OrderStatus } from '@bnpl-kit/core';
import { transition } from '@bnpl-kit/core/wire';
import { ensure } from '../expect.js';
import { createOrder, marketStatus } from '../support/orders.js';
import { expectAck, sendWebhook, statusEvent } from '../support/webhooks.js';
import { BOTH_MODES, type CheckContext, type ContractCheck } from '../types.js';

/** The statuses the provider's buttons bring a PENDING order to at the service, and how. */
const SERVICE_MOVES: readonly [OrderStatus, (ctx: CheckContext, id: string) => Promise<void>][] = [
  ['APPROVED', (ctx, id) => ctx.sandbox.approve(id)],
  ['CANCELED', (ctx, id) => ctx.sandbox.reject(id)],
  [
    'DISBURSING',
    async (ctx, id) => {
      await ctx.sandbox.approve(id);
      await ctx.sandbox.ready(id);
    },
  ],
  [
    'PAID',
    async (ctx, id) => {
      await ctx.sandbox.approve(id);
      await ctx.sandbox.ready(id);
      await ctx.sandbox.paid(id);
    },
  ],
];

/**
 * Readiness (DISBURSING, in the record or read from the service) makes a data-sharing market ask for
 * its money, which moves the service on while the check reads: those pairs are certified in basic
 * mode, as the state table does.
 */
const readinessFree = (stored: OrderStatus, service: OrderStatus) =>
  stored !== 'DISBURSING' && service !== 'DISBURSING' && service !== 'PAID';

export interface ReconcileCase {
  stored: OrderStatus;
  service: OrderStatus;
  expected: OrderStatus;
}

export function reconcileCases(mode: CheckContext['mode']): ReconcileCase[] {
  const cases: ReconcileCase[] = [];
  for (const stored of ORDER_STATUSES)
    for (const [service] of SERVICE_MOVES) {
      if (mode === 'data-sharing' && !readinessFree(stored, service)) continue;
      cases.push({ stored, service, expected: transition(stored, service).status });
    }
  return cases;
}

/** The events the service sends for the provider's buttons are lost: only the read can learn of them. */
async function unannounced(ctx: CheckContext, act: () => Promise<void>): Promise<void> {
  await ctx.sandbox.injectFault({ action: 'drop', times: 10 });
  try {
    await act();
  } finally {
    await ctx.sandbox.clearFaults();
  }
}

async function runCase(ctx: CheckContext, c: ReconcileCase): Promise<string | undefined> {
  const order = await createOrder(ctx);
  if (c.stored !== 'PENDING') {
    const { exchange } = await sendWebhook(ctx, statusEvent(order.id, c.stored));
    expectAck(exchange, false, `${c.stored} for the PENDING order ${order.id} (to reach ${c.stored})`);
  }
  const move = SERVICE_MOVES.find(([status]) => status === c.service)![1];
  await unannounced(ctx, () => move(ctx, order.id));
  const { status } = await marketStatus(ctx, order.id);
  // A market may disburse on readiness in either mode (R-STATE-06), and the service pays at once:
  // where the record reaches DISBURSING, PAID is as far as that goes.
  const allowed: string[] = c.expected === 'DISBURSING' ? ['DISBURSING', 'PAID'] : [c.expected];
  if (allowed.includes(status)) return undefined;
  const how = c.expected === c.stored ? 'no arrow leads there: the record stays' : 'a forward move';
  return `record ${c.stored}, service ${c.service}: expected ${c.expected} (${how}), the market reports ${status} (order ${order.id})`;
}

export const orderReconcileTableChecks: ContractCheck[] = [
  {
    id: 'orders.status.reconcile-table',
    title:
      "A status read reconciles the record forward along WIRE §3's arrows, for every pair of a stored status and one the service reached: ahead, level, or where no arrow leads",
    modes: BOTH_MODES,
    spec: 'WIRE §3, §5',
    rules: ['R-EP-05', 'R-STATE-02', 'R-STATE-03'],
    async run(ctx) {
      const wrong: string[] = [];
      // One case at a time: the dropped events are the sandbox's next ones, whichever order they are for.
      for (const c of reconcileCases(ctx.mode)) {
        const found = await runCase(ctx, c);
        if (found !== undefined) wrong.push(found);
      }
      ensure(wrong.length === 0, {
        expected:
          "each read to answer the record moved forward to the service's status where an arrow leads there, and the record as it was where none does",
        actual: wrong.join('\n    '),
        spec: 'WIRE §3, §5',
      });
    },
  },
];

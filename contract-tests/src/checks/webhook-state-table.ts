/**
 * WIRE §3's state table, whole: every ordered pair of statuses (forward, backward, out of a final
 * status, repeated) and, for the forward ones, the target in other cases (`approved`, `Approved`),
 * generated from core's own table (`transition`), never a hand list. Certify signs each event itself
 * and delivers it to an order of its own, then reads the market's record.
 *
 * Why the record shows what the webhooks did: the service holds every one of these orders PENDING,
 * and a market reconciles only forward (R-EP-05), which from PENDING moves nothing. So a status the
 * market reports can only come from the two webhooks certify sent, and a market cannot reconcile a
 * wrong move (or an ignored one) away.
 */
import { ORDER_STATUSES, type OrderStatus } from '@bnpl-kit/core';
import { transition } from '@bnpl-kit/core/wire';
import { ensure } from '../expect.js';
import { nearMisses } from '../support/near-misses.js';
import { createOrder, marketStatus } from '../support/orders.js';
import { expectAck, sendWebhook, statusEvent } from '../support/webhooks.js';
import { BOTH_MODES, type CheckContext, type ContractCheck } from '../types.js';

export interface StateTableCase {
  from: OrderStatus;
  /** The `order_status` sent, in the case sent. */
  sent: string;
  /** What the market must hold afterwards: core's `transition(from, sent)`. */
  expected: OrderStatus;
  applied: boolean;
  /** The rule the case applies (R-STATE-02 a forward move, R-STATE-03 one that changes nothing, R-SVC-13 the case). */
  rule: string;
}

const capitalized = (status: string) => status.charAt(0) + status.slice(1).toLowerCase();

/**
 * Readiness (DISBURSING) makes a data-sharing market ask the service for its money, which the service
 * refuses for an order it holds PENDING: those pairs are certified in basic mode, and readiness has
 * its own checks against orders the provider really approved.
 */
const readinessFree = (from: OrderStatus, to: OrderStatus) => from !== 'DISBURSING' && to !== 'DISBURSING';

/** Every case of the table for `mode`: each ordered pair, and the forward ones again in two other cases. */
export function stateTableCases(mode: CheckContext['mode']): StateTableCase[] {
  const cases: StateTableCase[] = [];
  for (const from of ORDER_STATUSES) {
    for (const to of ORDER_STATUSES) {
      if (mode === 'data-sharing' && !readinessFree(from, to)) continue;
      const result = transition(from, to);
      const rule = result.changed ? 'R-STATE-02' : 'R-STATE-03';
      cases.push({ from, sent: to, expected: result.status, applied: result.changed, rule });
      if (!result.changed) continue;
      for (const sent of [to.toLowerCase(), capitalized(to)])
        cases.push({ from, sent, expected: result.status, applied: true, rule: 'R-SVC-13' });
    }
  }
  // R-SVC-13 folds ASCII letters only, and nothing else makes a status: padded, full width, with an
  // invisible character, inside a longer word, or with a letter only Unicode folds ("paıd") is none
  // of the six (support/near-misses.ts).
  for (const to of ORDER_STATUSES) {
    if (!transition('PENDING', to).changed) continue;
    if (mode === 'data-sharing' && !readinessFree('PENDING', to)) continue;
    for (const sent of nearMisses(to, 'ascii-case-insensitive'))
      cases.push({ from: 'PENDING', sent, expected: 'PENDING', applied: false, rule: 'R-SVC-13' });
  }
  return cases;
}

/** Orders in flight at once: enough to keep a full table well under a second a case, bounded for the market. */
const CONCURRENCY = 6;

async function eachBounded<T>(items: readonly T[], limit: number, act: (item: T) => Promise<void>) {
  let next = 0;
  const worker = async () => {
    while (next < items.length) await act(items[next++]!);
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
}

/** Runs one case on a fresh order; the wrong outcome as one line, or undefined when the market was right. */
async function runCase(ctx: CheckContext, c: StateTableCase): Promise<string | undefined> {
  const order = await createOrder(ctx);
  if (c.from !== 'PENDING') {
    const setup = await sendWebhook(ctx, statusEvent(order.id, c.from));
    expectAck(setup.exchange, false, `${c.from} for the PENDING order ${order.id} (to reach ${c.from})`);
  }
  const { exchange } = await sendWebhook(ctx, statusEvent(order.id, c.sent));
  expectAck(exchange, false, `"${c.sent}" for an order in ${c.from} (a new event ID; WIRE §3 R-STATE-03)`);
  const { status } = await marketStatus(ctx, order.id);
  if (status === c.expected) return undefined;
  const what = c.applied ? `applied (${c.rule})` : `ignored, nothing changes (${c.rule})`;
  return `${c.from} → "${c.sent}": expected ${c.expected} (${what}), the market reports ${status} (order ${order.id})`;
}

export const webhookStateTableChecks: ContractCheck[] = [
  {
    id: 'webhook.state-table',
    title:
      'Every pair of statuses of §3 (forward, backward, out of a final status, repeated, other cases) moves the record as the table says',
    modes: BOTH_MODES,
    spec: 'WIRE §3',
    rules: ['R-STATE-01', 'R-STATE-02', 'R-STATE-03', 'R-SVC-13'],
    async run(ctx) {
      const cases = stateTableCases(ctx.mode);
      const wrong: string[] = [];
      await eachBounded(cases, CONCURRENCY, async (c) => {
        const problem = await runCase(ctx, c);
        if (problem) wrong.push(problem);
      });
      const rules = [...new Set(wrong.map((w) => /\((R-[A-Z]+-\d+)\)/.exec(w)?.[1]).filter(Boolean))];
      ensure(wrong.length === 0, {
        expected: `the record of each of ${cases.length} orders (held PENDING by the service, so only the webhooks move it) to follow WIRE §3's table`,
        actual: `${wrong.length} wrong:\n    ${wrong.sort().slice(0, 15).join('\n    ')}${wrong.length > 15 ? `\n    … and ${wrong.length - 15} more` : ''}`,
        spec: 'WIRE §3',
        ...(rules.length > 0 && { rule: rules.join(', ') }),
      });
    },
  },
];

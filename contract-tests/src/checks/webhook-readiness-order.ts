/**
 * Readiness in every order relative to the status updates (WIRE §3 R-STATE-08): readiness counts
 * only for an order whose stored status, once the event is applied, is APPROVED or DISBURSING
 * (core's `READINESS_STATUSES`). Certify signs the events itself and delivers them to orders the
 * service holds PENDING, as webhook.state-table does: the status updates alone move the market's
 * record, the market's reconciliation (forward only, R-EP-05) cannot move it back, and a
 * disbursement the market asks for shows as a call at the service even though the service refuses
 * it for an order it holds PENDING.
 *
 * The cases, derived from core's table: both forms of readiness (a requirement event with
 * `is_fulfilled: true`, a `DISBURSING` update) for an order in each of the six statuses, wherever
 * that readiness does not count; then the approval of the order that was PENDING when its readiness
 * came, which must not bring the forgotten readiness back. The cases where readiness counts need an
 * order the service really approved, and have their own checks (webhook.readiness-repeated,
 * lifecycle.*).
 *
 * What a market does from a background job after answering may come after certify looked: the
 * check sees the calls the market made while it ran.
 */
import { ORDER_STATUSES, type OrderStatus } from '@bnpl-kit/core';
import { READINESS_STATUSES, transition } from '@bnpl-kit/core/wire';
import { ensure } from '../expect.js';
import { pooled } from '../support/domain-cases.js';
import { createOrder, marketStatus } from '../support/orders.js';
import { isCallOnOrder } from '../support/own-calls.js';
import { expectAck, sendWebhook, statusEvent } from '../support/webhooks.js';
import { BOTH_MODES, type CheckContext, type ContractCheck } from '../types.js';
import { ContractViolation } from '../violation.js';

export interface ReadinessCase {
  /** The status the order holds in the market's record when readiness arrives. */
  from: OrderStatus;
  form: 'requirement' | 'status';
  /** The record afterwards: `from` for a requirement (R-STATE-07), core's transition for a status. */
  expected: OrderStatus;
  /** A status update delivered after the readiness (the approval of a PENDING order). */
  followedBy?: OrderStatus;
}

const requirementEvent = (orderId: string) =>
  JSON.stringify({
    type: 'BNPL_DISBURSEMENT_REQUIREMENT_STATUS_UPDATED',
    order_id: orderId,
    is_fulfilled: true,
  });

/** Every case where readiness does not count, derived from core's table and READINESS_STATUSES. */
export function readinessCases(): ReadinessCase[] {
  const cases: ReadinessCase[] = [];
  for (const from of ORDER_STATUSES) {
    const after: Record<ReadinessCase['form'], OrderStatus> = {
      requirement: from,
      status: transition(from, 'DISBURSING').status,
    };
    for (const form of ['requirement', 'status'] as const) {
      if (READINESS_STATUSES.includes(after[form])) continue;
      cases.push({ from, form, expected: after[form] });
      // Readiness before the approval: the approval that follows brings nothing back.
      const approved = transition(after[form], 'APPROVED');
      if (approved.changed) cases.push({ from, form, expected: approved.status, followedBy: 'APPROVED' });
    }
  }
  return cases;
}

function describeCase(c: ReadinessCase): string {
  const readiness = c.form === 'requirement' ? 'is_fulfilled: true' : 'a DISBURSING update';
  return `${readiness} while ${c.from}${c.followedBy ? `, then ${c.followedBy}` : ''}`;
}

/** Runs one case on a fresh order; what went wrong as one line, or undefined. */
async function runCase(ctx: CheckContext, c: ReadinessCase): Promise<string | undefined> {
  const order = await createOrder(ctx);
  try {
    return await deliverCase(ctx, c, order.id);
  } catch (error) {
    if (!(error instanceof ContractViolation)) throw error;
    // Not acknowledged: the market acted on a readiness that does not count (and the service refused).
    return `${describeCase(c)}: expected ${error.expected}; got ${error.actual.split('\n').slice(0, 2).join(' ').slice(0, 300)} (R-STATE-08; order ${order.id})`;
  }
}

async function deliverCase(
  ctx: CheckContext,
  c: ReadinessCase,
  orderId: string,
): Promise<string | undefined> {
  const order = { id: orderId };
  if (c.from !== 'PENDING') {
    const setup = await sendWebhook(ctx, statusEvent(order.id, c.from));
    expectAck(setup.exchange, false, `${c.from} for the PENDING order ${order.id} (to reach ${c.from})`);
  }
  const since = await ctx.sandbox.lastCallId();
  const body = c.form === 'requirement' ? requirementEvent(order.id) : statusEvent(order.id, 'DISBURSING');
  const { exchange } = await sendWebhook(ctx, body);
  expectAck(exchange, false, `${describeCase(c)} (order ${order.id})`);
  if (c.followedBy) {
    const next = await sendWebhook(ctx, statusEvent(order.id, c.followedBy));
    expectAck(next.exchange, false, `${c.followedBy} after ${describeCase(c)} (order ${order.id})`);
  }
  const calls = (await ctx.sandbox.serviceCalls(since)).filter(
    (call) => call.operation === 'disburseOrder' && isCallOnOrder(call, order.id),
  );
  if (calls.length > 0)
    return `${describeCase(c)}: ${calls.length} disburse call(s) at the service, expected none (R-STATE-08; order ${order.id})`;
  const { status } = await marketStatus(ctx, order.id);
  if (status !== c.expected) {
    const rule = c.form === 'requirement' && !c.followedBy ? 'R-STATE-07' : 'R-STATE-02';
    return `${describeCase(c)}: the market reports ${status}, expected ${c.expected} (${rule}; order ${order.id})`;
  }
  return undefined;
}

export const webhookReadinessOrderChecks: ContractCheck[] = [
  {
    id: 'webhook.readiness-every-order',
    title:
      'Readiness (is_fulfilled: true, DISBURSING) for an order PENDING, CANCELING, CANCELED or PAID, and before its approval, is acknowledged and disburses nothing',
    modes: BOTH_MODES,
    spec: 'WIRE §3',
    rules: ['R-STATE-08', 'R-STATE-07', 'R-STATE-06'],
    async run(ctx) {
      const cases = readinessCases();
      const wrong = (await pooled(cases, 4, (c) => runCase(ctx, c))).filter((w) => w !== undefined);
      const rules = [...new Set(wrong.map((w) => /\((R-[A-Z]+-\d+)/.exec(w)?.[1]).filter(Boolean))];
      ensure(wrong.length === 0, {
        expected: `each of ${cases.length} readiness deliveries where it does not count (the order not APPROVED or DISBURSING once the event is applied) acknowledged, with no disbursement and the record as WIRE §3 says`,
        actual: `${wrong.length} wrong:\n    ${wrong.sort().join('\n    ')}`,
        spec: 'WIRE §3',
        ...(rules.length > 0 && { rule: rules.join(', ') }),
      });
    },
  },
];

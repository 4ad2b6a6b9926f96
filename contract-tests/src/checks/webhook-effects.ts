/**
 * What an acknowledged event must leave unchanged (WIRE §3, §4, §6), read from the market's stored
 * state and the service calls it made after the event, not from its answer alone: a requirement event
 * with `is_fulfilled: false` is no readiness, and an event naming an order the market does not hold
 * (as a string or an integer ID) is acknowledged and acts on nothing. Found by `pnpm
 * certify:mutation` (mutation/survivors.md): markets with these defects answered every check.
 */
import { ORDER_STATUSES } from '@bnpl-kit/core';
import fc from 'fast-check';
import { ensure, expectJsonObject } from '../expect.js';
import { approvedOrder } from '../support/approvals.js';
import { generated } from '../support/generated.js';
import { ownRecordIsApproved, statusPath } from '../support/orders.js';
import { isCallOnOrder } from '../support/own-calls.js';
import { expectAck, sendWebhook } from '../support/webhooks.js';
import { BOTH_MODES, type CheckContext, type ContractCheck } from '../types.js';

const requirementEvent = (orderId: string | number, fulfilled: boolean) =>
  JSON.stringify({
    type: 'BNPL_DISBURSEMENT_REQUIREMENT_STATUS_UPDATED',
    order_id: orderId,
    is_fulfilled: fulfilled,
  });

/** The market's calls that act on an order at the service (disburse, revert) since call `since`. */
async function actionsOn(ctx: CheckContext, since: number, ids: readonly (string | number)[]) {
  return (await ctx.sandbox.serviceCalls(since)).filter(
    (c) =>
      (c.operation === 'disburseOrder' || c.operation === 'revertOrder') &&
      ids.some((id) => isCallOnOrder(c, id)),
  );
}

/**
 * For a market that hides its record while the service fails (a 502 is allowed, R-ERR-11): the
 * status it reports with the service healthy. The service holds the order APPROVED and a market
 * reconciles only forward (R-EP-05), so a record moved on (DISBURSING) shows through; undefined when
 * this read fails too.
 */
async function reconciledIsApproved(ctx: CheckContext, id: string): Promise<boolean | undefined> {
  const exchange = await ctx.http.send(statusPath(ctx, id), { headers: { ...ctx.systemAuth } });
  if (exchange.status !== 200) return undefined;
  return expectJsonObject(exchange, 'for the order status').status === 'APPROVED';
}

/** Order IDs the service never issued: in its own shape (`ord_<uuid>`), and integers (WIRE §6 accepts both). */
const unknownStringId = fc.uuid().map((u) => `ord_${u}`);
const unknownIntegerId = fc.integer({ min: 0, max: 2 ** 31 - 1 });

/** A well-formed event of a known type for `orderId`: a status update (any of the six) or a requirement. */
const knownEventFor = (orderId: string | number): fc.Arbitrary<[string, string]> =>
  fc.oneof(
    fc
      .constantFrom(...ORDER_STATUSES)
      .map((status): [string, string] => [
        `a ${status} status update`,
        JSON.stringify({ type: 'BNPL_ORDER_STATUS_UPDATED', order_id: orderId, order_status: status }),
      ]),
    fc
      .boolean()
      .map((fulfilled): [string, string] => [
        `a requirement event with is_fulfilled: ${fulfilled}`,
        requirementEvent(orderId, fulfilled),
      ]),
  );

export const webhookEffectChecks: ContractCheck[] = [
  {
    id: 'webhook.requirement-unfulfilled',
    title:
      'A requirement event with is_fulfilled: false is acknowledged and is no readiness: no disbursement, no status move',
    modes: BOTH_MODES,
    spec: 'WIRE §3',
    rules: ['R-STATE-06', 'R-STATE-07'],
    async run(ctx) {
      const id = await approvedOrder(ctx);
      const since = await ctx.sandbox.lastCallId();
      // Readiness is is_fulfilled: true; a service that reports a requirement still open, once or
      // again, has confirmed nothing (a market reading the field's presence would disburse here).
      const times = generated(ctx, fc.integer({ min: 1, max: 3 }), 1)[0] ?? 1;
      for (let i = 0; i < times; i++) {
        const { exchange } = await sendWebhook(ctx, requirementEvent(id, false));
        expectAck(exchange, false, `a requirement event with is_fulfilled: false (${i + 1} of ${times})`);
      }
      const acted = await actionsOn(ctx, since, [id]);
      const disbursed = await ctx.sandbox.disbursements(id);
      ensure(acted.length === 0 && disbursed === 0, {
        expected: `no disbursement of the APPROVED order ${id} after ${times} requirement event(s) with is_fulfilled: false (readiness is is_fulfilled: true or DISBURSING)`,
        actual: `${acted.map((c) => `${c.method} ${c.path}`).join(', ') || 'no call'}; ${disbursed} disbursement(s) at the service`,
        spec: 'WIRE §3',
      });
      const approved = (await ownRecordIsApproved(ctx, id)) ?? (await reconciledIsApproved(ctx, id));
      if (approved === undefined)
        ctx.notExercised(
          'own-record',
          `the market answered its status endpoint with an error, while the service failed and while it was healthy, so whether the requirement events moved its record of ${id} was never seen`,
        );
      ensure(approved, {
        expected: `the market's own record of ${id} to stay APPROVED (is_fulfilled moves no status, and false is no readiness)`,
        actual: 'another status',
        spec: 'WIRE §3',
      });
    },
  },
  {
    id: 'webhook.unknown-order',
    title:
      'Events naming an order the market does not hold (string or integer ID) are acknowledged (200) and act on nothing',
    modes: BOTH_MODES,
    spec: 'WIRE §4, §6',
    rules: ['R-WH-13', 'R-SVC-12'],
    async run(ctx) {
      const since = await ctx.sandbox.lastCallId();
      // Both shapes every run.
      const ids = [...generated(ctx, unknownStringId, 2, 1), ...generated(ctx, unknownIntegerId, 2, 2)];
      for (const [i, orderId] of ids.entries()) {
        const [what, body] = generated(ctx, knownEventFor(orderId), 1, 10 + i)[0]!;
        const { exchange } = await sendWebhook(ctx, body);
        expectAck(
          exchange,
          false,
          `${what} naming ${JSON.stringify(orderId)}, an order the market does not hold (the service would retry anything else forever; seed ${ctx.seed})`,
        );
        // Readiness for an unknown order is the strongest temptation to act: send it too.
        const ready = await sendWebhook(ctx, requirementEvent(orderId, true));
        expectAck(
          ready.exchange,
          false,
          `readiness (is_fulfilled: true) naming the unknown order ${orderId}`,
        );
      }
      const acted = await actionsOn(ctx, since, ids);
      ensure(acted.length === 0, {
        expected: 'no disburse or revert call for orders the market does not hold',
        actual: acted.map((c) => `${c.method} ${c.path}`).join(', '),
        spec: 'WIRE §4',
      });
    },
  },
];

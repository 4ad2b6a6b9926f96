/**
 * The market's order state follows the webhooks it acknowledged (WIRE §3, §4): forward moves only,
 * a duplicate event ID has no second effect, and the service's own deliveries are accepted. The state
 * is read over HTTP: the status endpoint reports the local record reconciled with the service (so a
 * status only a webhook could have set shows through), and cancel / disburse follow the state rules.
 */
import { ensure, expectJsonObject, expectProblem } from '../expect.js';
import { approvedAtService } from '../support/approvals.js';
import { withFaults } from '../support/faults.js';
import { createOrder, expectMarketStatus, postAction, statusPath } from '../support/orders.js';
import { isCallOnOrder } from '../support/own-calls.js';
import { deliver, expectAck, sendWebhook, statusEvent } from '../support/webhooks.js';
import { BOTH_MODES, type CheckContext, type ContractCheck } from '../types.js';

/**
 * The market's own record of an order is still `status`. The status endpoint reconciles forward with
 * the service, which would hide a backward move; with the service failing, a market that answers from
 * its own record shows that record. One that answers an error instead (a 502 is allowed, R-ERR-11)
 * shows nothing: false then, and the caller reads the record another way or reports the check not
 * exercised, never passed.
 */
async function expectOwnRecord(
  ctx: CheckContext,
  id: string,
  statuses: readonly string[],
  why: string,
): Promise<boolean> {
  const stored = await withFaults(
    ctx,
    [{ operation: 'getOrder', action: 'error', status: 500, times: 5, order_id: id }],
    () => ctx.http.send(statusPath(ctx, id), { headers: { ...ctx.systemAuth } }),
  );
  if (stored.status !== 200) return false;
  const body = expectJsonObject(stored, 'for the order status');
  ensure(statuses.includes(String(body.status)), {
    expected: `the market's own record of ${id} to stay ${statuses.join(' or ')} (${why})`,
    exchange: stored,
    spec: 'WIRE §3',
  });
  return true;
}

/** The late updates of each stage of `webhook.out-of-order`, oldest last as the service sent them. */
const LATE_UPDATES = { DISBURSING: ['APPROVED', 'PENDING'], PAID: ['PENDING', 'APPROVED'] } as const;

/**
 * Data-sharing: cancel is decided on the market's own record (R-EP-06, 409 unless APPROVED), so a
 * record moved back to APPROVED shows as a revert call at the service; a record that stayed put
 * answers 409 and calls nothing.
 */
async function expectCancelRefusedOnRecord(ctx: CheckContext, id: string, stage: string): Promise<void> {
  const since = await ctx.sandbox.lastCallId();
  const exchange = await postAction(ctx, id, 'cancel');
  const reverts = (await ctx.sandbox.serviceCalls(since)).filter(
    (c) => c.operation === 'revertOrder' && isCallOnOrder(c, id),
  );
  ensure(exchange.status !== 202 && reverts.length === 0, {
    expected: `cancel of the ${stage} order ${id} refused on the market's own record (409, no revert call at the service): the later ${LATE_UPDATES.DISBURSING.join(' and ')} came late`,
    actual: `${exchange.status}; ${reverts.length} revert call(s) at the service, so the record went back to APPROVED`,
    exchange,
    spec: 'WIRE §3, §5',
    rule: 'R-STATE-03',
  });
}

/**
 * Basic mode, when the market hides its record while the service fails: the same late updates on an
 * order the service holds PENDING, signed by certify, read with the service healthy. A market
 * reconciles only forward (R-EP-05), which from the service's PENDING moves nothing, so what it
 * reports is its own record (as webhook.state-table reads it). False when even that read fails.
 */
async function lateUpdatesOnHeldOrder(ctx: CheckContext): Promise<boolean> {
  const order = await createOrder(ctx);
  for (const stage of ['DISBURSING', 'PAID'] as const) {
    const { exchange } = await deliver(ctx, statusEvent(order.id, stage), `${stage} for ${order.id}`);
    expectAck(exchange, false, `${stage} for the order ${order.id}`);
    for (const status of LATE_UPDATES[stage]) {
      const late = await deliver(ctx, statusEvent(order.id, status), `${status} for ${order.id}`);
      expectAck(late.exchange, false, `a late ${status} update of a ${stage} order`);
    }
    const read = await ctx.http.send(statusPath(ctx, order.id), { headers: { ...ctx.systemAuth } });
    if (read.status !== 200) return false;
    const body = expectJsonObject(read, 'for the order status');
    ensure(body.status === stage, {
      expected: `the market's record of ${order.id} (held PENDING by the service, so only the webhooks move it) to stay ${stage} (the later ${LATE_UPDATES[stage].join(' and ')} came late)`,
      exchange: read,
      spec: 'WIRE §3',
      rule: 'R-STATE-03',
    });
  }
  return true;
}

export const webhookStateChecks: ContractCheck[] = [
  {
    id: 'webhook.duplicate-event-id',
    title: 'A repeated X-Event-Id is acknowledged with duplicate: true and has no second effect',
    modes: BOTH_MODES,
    spec: 'WIRE §4',
    rules: ['R-WH-14'],
    async run(ctx) {
      const { order, delivery } = await approvedAtService(ctx);
      const replayed = await ctx.sandbox.replay(delivery.id);
      const answer = replayed.attempts.at(-1);
      let body: unknown;
      try {
        body = JSON.parse(answer?.responseBody ?? '');
      } catch {
        body = undefined;
      }
      ensure(answer?.responseStatus === 200 && (body as { duplicate?: unknown })?.duplicate === true, {
        expected: `200 {"received":true,"duplicate":true} for the service delivering event ${delivery.eventId} again`,
        actual: `${answer?.responseStatus} ${answer?.responseBody ?? ''}`,
      });
      // Same event ID, different body: an event ID names one event, processed once.
      const { exchange } = await sendWebhook(ctx, statusEvent(order.id, 'CANCELED'), {
        eventId: delivery.eventId,
      });
      expectAck(exchange, true, `a second body under the processed event ID ${delivery.eventId}`);
      await expectMarketStatus(ctx, order.id, 'APPROVED', 'the CANCELED webhook reused a processed event ID');
    },
  },
  {
    id: 'webhook.distinct-event-ids',
    title:
      'Event IDs that differ only in letter case are different events: each is processed, none is a duplicate',
    modes: BOTH_MODES,
    spec: 'WIRE §4',
    rules: ['R-WH-14', 'R-WH-15'],
    async run(ctx) {
      // The service holds the order PENDING, so only these deliveries move the market's record.
      const order = await createOrder(ctx);
      const id = ctx.unique('evt-case');
      const steps = [
        [id.toLowerCase(), 'APPROVED'],
        [id.toUpperCase(), 'CANCELING'],
        [id.charAt(0).toUpperCase() + id.slice(1).toLowerCase(), 'CANCELED'],
      ] as const;
      for (const [eventId, status] of steps) {
        const { exchange } = await sendWebhook(ctx, statusEvent(order.id, status), { eventId });
        expectAck(
          exchange,
          false,
          `event ${eventId} (${status}), another event than ${steps
            .filter(([other]) => other !== eventId)
            .map(([other]) => other)
            .join(' and ')}: an event ID is compared exactly, as a case-insensitive column would not`,
        );
      }
      await expectMarketStatus(ctx, order.id, 'CANCELED', 'each of the three events was processed');
    },
  },
  {
    id: 'webhook.out-of-order',
    title: 'Late or out-of-order status updates are acknowledged and never move an order backwards',
    modes: BOTH_MODES,
    spec: 'WIRE §3',
    rules: ['R-STATE-02', 'R-STATE-03'],
    async run(ctx) {
      // The service's own history (PENDING → APPROVED → DISBURSING → PAID, each delivered); then
      // updates it sent earlier arrive again, late, under new event IDs.
      const { order } = await approvedAtService(ctx);
      await ctx.sandbox.ready(order.id);
      await ctx.sandbox.awaitStatusDelivery(order.id, 'DISBURSING');
      // Every step counts, not only the final one: late APPROVED and PENDING updates of a
      // DISBURSING order leave it DISBURSING. A data-sharing market may disburse on readiness by
      // itself (R-STATE-06), at any moment from here on: PAID is a forward move then, not a failure.
      const forward = ctx.mode === 'data-sharing' ? ['DISBURSING', 'PAID'] : ['DISBURSING'];
      // The stages whose record the status endpoint could not show (the market answers an error
      // while the service fails): read another way below, else the check is not exercised.
      const unread: string[] = [];
      if ((await ctx.sandbox.order(order.id))?.status === 'DISBURSING') {
        for (const status of LATE_UPDATES.DISBURSING) {
          const { exchange } = await deliver(ctx, statusEvent(order.id, status), `${status} for ${order.id}`);
          expectAck(exchange, false, `a late ${status} update of a DISBURSING order`);
        }
        if (!(await expectOwnRecord(ctx, order.id, forward, 'the later APPROVED and PENDING came late'))) {
          if (ctx.mode === 'data-sharing') await expectCancelRefusedOnRecord(ctx, order.id, 'DISBURSING');
          else unread.push('DISBURSING');
        }
      }
      await ctx.sandbox.paid(order.id);
      await ctx.sandbox.awaitStatusDelivery(order.id, 'PAID');
      const settled = 'PAID';
      for (const status of LATE_UPDATES.PAID) {
        const { exchange } = await deliver(ctx, statusEvent(order.id, status), `${status} for ${order.id}`);
        expectAck(exchange, false, `a late ${status} update with a new event ID`);
      }
      // Data-sharing markets show the PAID record through cancel and disburse just below.
      const paidRead = await expectOwnRecord(
        ctx,
        order.id,
        [settled],
        'the later PENDING and APPROVED came late',
      );
      if (!paidRead && ctx.mode !== 'data-sharing') unread.push('PAID');
      if (unread.length > 0 && !(await lateUpdatesOnHeldOrder(ctx)))
        ctx.notExercised(
          'own-record',
          `the market answered its status endpoint with an error while the service failed, and for an order the service holds PENDING too, so its own record after the late updates of the ${unread.join(' and ')} order ${order.id} was never seen (the reconciled status hides a backward move)`,
        );
      if (ctx.mode === 'data-sharing') {
        // Both are decided on the market's own record: APPROVED (moved back) would allow them.
        // Before any status read, which would reconcile the record forward again.
        for (const action of ['cancel', 'disburse'] as const) {
          const exchange = await postAction(ctx, order.id, action);
          expectProblem(exchange, 409, { what: `for ${action} of a PAID order`, spec: 'WIRE §3, §5' });
        }
      }
      await expectMarketStatus(ctx, order.id, settled, 'the later PENDING and APPROVED came late');
    },
  },
  {
    id: 'webhook.service-deliveries-acknowledged',
    title: "The service's own signed deliveries (APPROVED, DISBURSING, PAID) are acknowledged and applied",
    modes: BOTH_MODES,
    spec: 'WIRE §4',
    rules: ['R-WH-13', 'R-WH-02'],
    async run(ctx) {
      const order = await createOrder(ctx);
      const steps = [
        { status: 'APPROVED', act: () => ctx.sandbox.approve(order.id) },
        { status: 'DISBURSING', act: () => ctx.sandbox.ready(order.id) },
        { status: 'PAID', act: () => ctx.sandbox.paid(order.id) },
      ];
      for (const step of steps) {
        // A data-sharing market may disburse by itself on readiness: then `paid` finds the order
        // PAID already, and the PAID delivery to acknowledge is the one its disbursement caused.
        await step.act();
        const delivery = await ctx.sandbox.awaitStatusDelivery(order.id, step.status);
        const answer = delivery.attempts.at(-1);
        ensure(answer?.responseStatus === 200 && /"received"\s*:\s*true/.test(answer.responseBody ?? ''), {
          expected: `200 {"received":true} for the service's ${step.status} delivery signed for ${delivery.url} (is PUBLIC_BASE_URL right?)`,
          actual: `${answer?.responseStatus ?? 'no answer'} ${answer?.responseBody ?? answer?.outcome ?? ''}`,
        });
      }
      await expectMarketStatus(ctx, order.id, 'PAID', 'the provider approved, confirmed readiness and paid');
    },
  },
  {
    id: 'webhook.state-follows-deliveries',
    title: 'Cancel follows the delivered state: allowed once APPROVED arrived, refused once DISBURSING did',
    modes: ['data-sharing'],
    spec: 'WIRE §3',
    rules: ['R-STATE-02', 'R-EP-06'],
    async run(ctx) {
      const { order: approved } = await approvedAtService(ctx);
      const cancel = await postAction(ctx, approved.id, 'cancel');
      ensure(cancel.status === 202, {
        expected: '202 for cancelling an order whose APPROVED webhook was delivered',
        exchange: cancel,
      });

      const ready = await createOrder(ctx);
      await ctx.sandbox.approve(ready.id);
      await ctx.sandbox.ready(ready.id);
      await ctx.sandbox.awaitStatusDelivery(ready.id, 'DISBURSING');
      const refused = await postAction(ctx, ready.id, 'cancel');
      expectProblem(refused, 409, {
        what: 'for cancelling an order whose DISBURSING webhook was delivered',
        spec: 'WIRE §3, §5',
      });
    },
  },
];

/**
 * What a long-running market meets and a short test run does not: readiness delivered more than once
 * and by both paths (WIRE §3), the service's access token expiring or revoked (a 401 from the service,
 * WIRE §6), and a restart between a delivery and its retry (WIRE §4).
 */
import { ensure, expectProblem } from '../expect.js';
import { approvedAtService, approvedOrder } from '../support/approvals.js';
import { untilElapsed } from '../support/clock.js';
import { withFaults } from '../support/faults.js';
import { createOrder, expectMarketStatus, marketStatus, postOrder, sampleOrder } from '../support/orders.js';
import { isCallOnOrder } from '../support/own-calls.js';
import { callsAround, refusedElsewhere } from '../support/token-renewals.js';
import { expectAck, sendWebhook, statusEvent } from '../support/webhooks.js';
import { BOTH_MODES, type CheckContext, type ContractCheck } from '../types.js';

const requirementEvent = (orderId: string, fulfilled: boolean) =>
  JSON.stringify({
    type: 'BNPL_DISBURSEMENT_REQUIREMENT_STATUS_UPDATED',
    order_id: orderId,
    is_fulfilled: fulfilled,
  });

/** Service calls of `operation` after call `since`, as the sandbox recorded them. */
async function callsOf(ctx: CheckContext, since: number, operation: string) {
  return (await ctx.sandbox.serviceCalls(since)).filter((c) => c.operation === operation);
}

/**
 * How old the market's access token is made before the calls that must reuse it: past
 * (3600 − 60) ms, where a cache reckoned in milliseconds from the sandbox's `expires_in` of 3600
 * (seconds) has run out, and with it every cache shorter than that (nanoseconds, a cache of one call).
 */
const TOKEN_AGE_MS = 4000;

/** The service calls certify's requests make the market do, after the first: a status read each. */
const CALLS_ON_ONE_TOKEN = 3;

/** Status reads sent at once after the service revoked the market's token: each meets the 401. */
const RACING_READS = 4;
/**
 * How late the service answers each token request, so that requests made meanwhile overlap it: the
 * 401s of calls sent together arrive within milliseconds, and one renewal after another is this far apart.
 */
const RENEWAL_DELAY_MS = 300;

/**
 * The check that the market keeps its state across a restart (certify restarts it through
 * `--start-command` or `--restart-command`): a stack's own, where the store lives on that stack.
 */
export const RESTART_CHECK = 'restart.state-survives';

export const serviceLifecycleChecks: ContractCheck[] = [
  {
    id: 'service.token.renewed-by-one',
    title: `A token the service revoked is renewed by one request at a time: ${RACING_READS} calls meeting its 401 together wait for one renewal, never each its own at once`,
    modes: BOTH_MODES,
    spec: 'WIRE §6',
    rules: ['R-SVC-03', 'R-SVC-04'],
    async run(ctx) {
      const orders: string[] = [];
      for (let i = 0; i < RACING_READS; i++) orders.push((await createOrder(ctx)).id);
      // A service rotating its secrets: the market's cached token is refused from now on.
      await ctx.sandbox.revokeAccessTokens();
      const since = await ctx.sandbox.lastCallId();
      // Each token request answered late: a second one sent before the first was answered overlaps it.
      await withFaults(
        ctx,
        [{ operation: 'token', action: 'delay', delay_ms: RENEWAL_DELAY_MS, times: RACING_READS }],
        () => ctx.http.together(orders.map((id) => () => marketStatus(ctx, id))),
      );
      const { calls, window } = await callsAround(ctx, since);
      const renewals = window.filter((c) => c.operation === 'token').sort((a, b) => a.at - b.at);
      // The market's other clients met the revocation too.
      const othersRefused = refusedElsewhere(
        calls,
        since,
        (c) => c.operation === 'getOrder' && orders.some((id) => isCallOnOrder(c, id)),
      );
      ensure(renewals.length >= 1, {
        expected: `a token request after the service refused the revoked token (the ${RACING_READS} status reads each ask the service, R-EP-05)`,
        actual: 'no token request',
        spec: 'WIRE §6',
      });
      // A renewal under way holds the others back: the next request comes after its answer, which
      // comes RENEWAL_DELAY_MS after it arrived (by the sandbox's clock, so no cross-machine time).
      const overlapping = renewals.slice(1).filter((call, i) => call.at - renewals[i]!.at < RENEWAL_DELAY_MS);
      ensure(overlapping.length <= othersRefused, {
        expected: `one token request at a time (R-SVC-03): the ${RACING_READS} calls that met the 401 together wait for the renewal under way`,
        actual: `${renewals.length} token requests, ${overlapping.length} of them sent while the one before was unanswered (arriving ${renewals.map((c) => c.at - renewals[0]!.at).join(', ')} ms after the first; each answered ${RENEWAL_DELAY_MS} ms after it arrived), and ${othersRefused} refused call(s) of the market's other clients that may each renew`,
        spec: 'WIRE §6',
      });
    },
  },
  {
    id: 'service.token.reused',
    title:
      'The access token is cached until shortly before it expires: calls seconds apart reuse it, no token request without a 401',
    modes: BOTH_MODES,
    spec: 'WIRE §6',
    rules: ['R-SVC-02'],
    async run(ctx) {
      // A call, so the market holds a token (fetched now or long before).
      const order = await createOrder(ctx);
      const calls = await ctx.sandbox.serviceCalls(0);
      const lastToken = calls.findLast((c) => c.operation === 'token');
      const latest = calls.at(-1);
      // Its age by the sandbox's own clock (no comparison across machines' clocks), then certify's
      // clock waits out the rest: nothing when the token is older already.
      if (lastToken && latest && Number.isFinite(lastToken.at) && Number.isFinite(latest.at))
        await untilElapsed(Date.now() - (latest.at - lastToken.at), TOKEN_AGE_MS);
      const since = await ctx.sandbox.lastCallId();
      for (let read = 0; read < CALLS_ON_ONE_TOKEN; read++) await marketStatus(ctx, order.id);
      const { calls: around, window } = await callsAround(ctx, since);
      const renewals = window.filter((c) => c.operation === 'token');
      // R-SVC-04: a 401 (a token the service revoked) is renewed, and a token within a minute of
      // expiry may be too; no other renewal (the sandbox's tokens live 3600 s). A 401 of any
      // client's, the status reads' own too, and one just before the window may bring one.
      const refused = refusedElsewhere(around, since, () => false);
      const used = window.filter((c) => c.operation !== 'token').length;
      ensure(renewals.length <= refused, {
        expected: `the access token the market fetched ${TOKEN_AGE_MS / 1000} s or more before reused for its next ${CALLS_ON_ONE_TOKEN} status reads (cached until 60 s before expires_in, 3600 s, runs out)`,
        actual: `${renewals.length} token request(s) among ${used} service call(s); ${refused} 401(s) of the service that may each bring one`,
        spec: 'WIRE §6',
      });
    },
  },
  {
    id: 'webhook.readiness-repeated',
    title:
      'Readiness delivered again and by both paths is acknowledged each time; is_fulfilled moves no status; at most one disbursement',
    modes: BOTH_MODES,
    spec: 'WIRE §3',
    rules: ['R-STATE-06', 'R-STATE-07'],
    async run(ctx) {
      const id = await approvedOrder(ctx);
      const since = await ctx.sandbox.lastCallId();
      if (ctx.mode === 'basic') {
        // R-STATE-07: the requirement event alone moves no status. A market may disburse on it (in
        // either mode: R-STATE-06 only bounds it to once); the service's answer to that may move the
        // status (a reconciled service answer, which R-STATE-07 allows), the event itself never.
        const { exchange } = await sendWebhook(ctx, requirementEvent(id, true));
        expectAck(exchange, false, 'a disbursement requirement event with is_fulfilled: true');
        const { status, exchange: read } = await marketStatus(ctx, id);
        if (status !== 'APPROVED') {
          // Read after the status, so a disbursement that raced the read is seen.
          const disbursed = (await callsOf(ctx, since, 'disburseOrder')).some((c) => isCallOnOrder(c, id));
          const history = (await ctx.sandbox.order(id))?.history ?? [];
          ensure(disbursed && history.includes(status), {
            expected: `order ${id} to stay APPROVED after is_fulfilled: true, or to hold the status the service answered the market's disbursement with`,
            actual: `status ${status}; ${disbursed ? `the service's history ${history.join(' → ')}` : 'no disbursement call was made'}`,
            exchange: read,
            spec: 'WIRE §3',
            rule: 'R-STATE-07',
          });
        }
      }
      // The service confirms readiness with its own DISBURSING too, unless a disbursement moved it on.
      if (ctx.mode === 'data-sharing' || (await ctx.sandbox.order(id))?.status === 'APPROVED') {
        await ctx.sandbox.ready(id);
        await ctx.sandbox.awaitStatusDelivery(id, 'DISBURSING');
      }
      for (let round = 0; round < 2; round++) {
        for (const [what, body] of [
          ['DISBURSING status update', statusEvent(id, 'DISBURSING')],
          ['is_fulfilled: true requirement event', requirementEvent(id, true)],
        ] as const) {
          const { exchange } = await sendWebhook(ctx, body);
          expectAck(exchange, false, `a repeated ${what} (new event ID, round ${round + 1})`);
        }
      }
      {
        // At most once, in either mode (R-STATE-06): a market that never disburses passes too.
        const count = await ctx.sandbox.disbursements(id);
        // A service that does not dedupe by state would pay once per distinct Idempotency-Key.
        const keys = new Set(
          (await callsOf(ctx, since, 'disburseOrder'))
            .filter((c) => isCallOnOrder(c, id))
            .map((c) => c.idempotencyKey ?? '(none)'),
        );
        ensure(count <= 1 && keys.size <= 1, {
          expected: `order ${id} disbursed at most once after readiness came five times by two paths (one disbursement, one Idempotency-Key)`,
          actual: `${count} disbursements at the service, disburse calls under ${keys.size} distinct Idempotency-Keys`,
          spec: 'WIRE §3, §6',
        });
      }
    },
  },
  {
    id: 'service.token.renewed-on-401',
    title:
      'A 401 from the service (expired or revoked access token) is answered by renewing the token once and repeating the call',
    modes: BOTH_MODES,
    spec: 'WIRE §6',
    rules: ['R-SVC-04', 'R-SVC-01'],
    async run(ctx) {
      const since = await ctx.sandbox.lastCallId();
      const request = sampleOrder(ctx.unique('ref'));
      const created = await withFaults(
        ctx,
        [{ operation: 'createOrder', action: 'error', status: 401, times: 1 }],
        () => postOrder(ctx, request),
      );
      ensure(created.status === 201, {
        expected:
          '201 for an order whose first create call the service answered 401 (token expired): renew the token, repeat once',
        exchange: created,
        spec: 'WIRE §6',
      });
      const creates = await callsOf(ctx, since, 'createOrder');
      ensure(creates.length >= 2, {
        expected: 'the create call repeated after the 401',
        actual: `${creates.length} create call(s)`,
        spec: 'WIRE §6',
      });
      const order = await createOrder(ctx);
      const beforeStatus = await ctx.sandbox.lastCallId();
      const { status } = await withFaults(
        ctx,
        [{ operation: 'getOrder', action: 'error', status: 401, times: 1, order_id: order.id }],
        () => marketStatus(ctx, order.id),
      );
      ensure(status === 'PENDING', {
        expected: `the status of ${order.id} (PENDING) after the service answered its status call 401 once`,
        actual: String(status),
        spec: 'WIRE §6',
      });
      const tokens = await callsOf(ctx, beforeStatus, 'token');
      ensure(tokens.length >= 1, {
        expected: 'a new access token requested after the 401',
        actual: 'no token request',
        spec: 'WIRE §6',
      });
    },
  },
  {
    id: 'service.token.renewed-once',
    title:
      'A 401 that persists after the renewal ends the call: one renewal, one repeat, then a 502/503/504 problem (not a 401 of the market)',
    modes: BOTH_MODES,
    spec: 'WIRE §6',
    rules: ['R-SVC-04', 'R-ERR-11'],
    async run(ctx) {
      const request = sampleOrder(ctx.unique('ref'));
      const since = await ctx.sandbox.lastCallId();
      // Every attempt refused, however many the market makes (a loop would meet all ten).
      const exchange = await withFaults(
        ctx,
        [{ operation: 'createOrder', action: 'error', status: 401, times: 10 }],
        () => postOrder(ctx, request),
      );
      // The service refused the market's credentials, not the caller's: a 401 would tell the
      // market's own client to fix its token (R-ERR-05).
      expectProblem(exchange, [502, 503, 504], {
        what: 'when the service answers 401 to the create call and again after the token was renewed',
        code: ['upstream_unavailable', 'upstream_rejected', 'upstream_timeout'],
        spec: 'WIRE §2, §6',
      });
      const { calls, window } = await callsAround(ctx, since);
      const creates = window.filter(
        (c) => c.operation === 'createOrder' && (c.body ?? '').includes(request.reference_id),
      );
      const renewals = window.filter((c) => c.operation === 'token');
      // One renewal for the create's 401, and one for each refused call of another client.
      const othersRefused = refusedElsewhere(calls, since, (c) => creates.includes(c));
      ensure(creates.length <= 2 && renewals.length <= 1 + othersRefused, {
        expected:
          'the create call made twice at most (the first, and one repeat after one token renewal), then given up',
        actual: `${creates.length} create calls, ${renewals.length} token requests`,
        spec: 'WIRE §6',
      });
    },
  },
  ...(
    [
      ['error', 'answers 500', { action: 'error', status: 500 }],
      ['malformed', 'answers 200 with a body that is no envelope', { action: 'malformed' }],
      ['refused', 'answers 200 with success: false', { action: 'refused' }],
    ] as const
  ).map(
    ([slug, what, fault]): ContractCheck => ({
      id: `service.token.renewal-${slug}`,
      title: `A renewal whose token request the service ${what}: a 502/503/504 problem, and the call succeeds once the service works again`,
      modes: BOTH_MODES,
      spec: 'WIRE §6',
      rules: ['R-SVC-04', 'R-ERR-11', 'R-SVC-01'],
      async run(ctx) {
        const request = sampleOrder(ctx.unique('ref'));
        // The 401 makes the market renew (R-SVC-04); every token request then fails.
        const exchange = await withFaults(
          ctx,
          [
            { operation: 'createOrder', action: 'error', status: 401, times: 1 },
            { operation: 'token', ...fault, times: 10 },
          ],
          () => postOrder(ctx, request),
        );
        expectProblem(exchange, [502, 503, 504], {
          what: `when the service refused the access token and its token request ${what}`,
          code: ['upstream_unavailable', 'upstream_rejected', 'upstream_timeout'],
          spec: 'WIRE §2, §6',
        });
        const again = await postOrder(ctx, request);
        ensure(again.status === 200 || again.status === 201, {
          expected: 'the same order created once the token request works again (a new token fetched)',
          exchange: again,
          spec: 'WIRE §6',
        });
      },
    }),
  ),
  {
    id: RESTART_CHECK,
    title:
      'After a restart, a processed event is still a duplicate and the order still known (--restart-command)',
    modes: BOTH_MODES,
    spec: 'WIRE §4',
    rules: ['R-WH-20'],
    async run(ctx) {
      const restart = ctx.restartMarket;
      if (!restart)
        return ctx.notExercised(
          'restart',
          'certify was given no --restart-command, so nothing showed whether processed event IDs, orders and tokens survive a restart of the market',
        );
      const { order, delivery } = await approvedAtService(ctx);
      await restart();
      const again = await sendWebhook(ctx, delivery.body, { eventId: delivery.eventId });
      expectAck(
        again.exchange,
        true,
        `event ${delivery.eventId}, processed before the restart, retried after it`,
      );
      await expectMarketStatus(ctx, order.id, 'APPROVED', 'it was approved before the restart');
      const fresh = await sendWebhook(ctx, statusEvent(order.id, 'APPROVED'));
      expectAck(fresh.exchange, false, 'a new event after the restart');
      const created = await postOrder(ctx, sampleOrder(ctx.unique('ref')));
      ensure(created.status === 201, {
        expected: '201 for a new order after the restart (the market gets a token again)',
        exchange: created,
        spec: 'WIRE §6',
      });
    },
  },
];

/**
 * Cancel and disburse (WIRE §5, data-sharing mode): 409 unless the order is in a state that allows
 * the action, 202 `{ id, status }` otherwise, and a disbursement is paid once however often it is asked.
 */

import { pollUntil } from '@bnpl-kit/core/testing';
import { ensure, expectJsonObject, expectProblem, expectStatus, fail } from '../expect.js';
import type { HttpExchange } from '../http.js';
import { approvedOrder, statusReached } from '../support/approvals.js';
import { createOrder, marketStatus, orderPath, postAction } from '../support/orders.js';
import { MARKET_EFFECT_WAIT_MS } from '../support/wait.js';
import { deliver, statusEvent } from '../support/webhooks.js';
import { type CheckContext, type ContractCheck, DATA_SHARING_ONLY } from '../types.js';

function expectAccepted(exchange: HttpExchange, orderId: string, what: string): void {
  expectStatus(exchange, 202, what, 'WIRE §5');
  const body = expectJsonObject(exchange, what);
  ensure(body.id === orderId && typeof body.status === 'string', {
    expected: `202 { "id": "${orderId}", "status": <status> } ${what}`,
    exchange,
  });
}

type OrderAction = 'cancel' | 'disburse';

const GERUND: Record<OrderAction, string> = { cancel: 'Cancelling', disburse: 'Disbursing' };

/** An action on a PENDING order is refused, and `unchanged` shows the service saw nothing of it. */
function pendingOrderRefused(
  action: OrderAction,
  unchanged: (ctx: CheckContext, orderId: string) => Promise<void>,
): ContractCheck {
  return {
    id: `orders.${action}.requires-approved`,
    title: `${GERUND[action]} a PENDING order is a 409 problem`,
    modes: DATA_SHARING_ONLY,
    spec: 'WIRE §5',
    rules: [action === 'cancel' ? 'R-EP-06' : 'R-EP-08', 'R-ERR-08'],
    async run(ctx) {
      const order = await createOrder(ctx);
      const exchange = await postAction(ctx, order.id, action);
      expectProblem(exchange, 409, {
        what: `for ${GERUND[action].toLowerCase()} a PENDING order`,
        code: 'invalid_transition',
        spec: 'WIRE §5',
      });
      await unchanged(ctx, order.id);
    },
  };
}

/**
 * An order the market holds in a status of WIRE §3, how it got there, and the one action the status
 * allows, if any (R-EP-06: cancel only from APPROVED; R-EP-08: disburse from APPROVED or DISBURSING).
 */
interface RefusingState {
  status: string;
  how: string;
  allows?: OrderAction;
  reach(ctx: CheckContext): Promise<string>;
}

/**
 * Every status of WIRE §3 but APPROVED (which allows both actions, other checks' ground): those from
 * which R-EP-06 and R-EP-08 refuse both, and DISBURSING, which allows disburse only; each reached the
 * way a real order reaches it (CANCELING as the provider's status update, the service cannot hold it).
 */
const REFUSING_STATES: readonly RefusingState[] = [
  { status: 'PENDING', how: 'a new order', reach: async (ctx) => (await createOrder(ctx)).id },
  {
    status: 'CANCELED',
    how: 'rejected by the provider',
    async reach(ctx) {
      const { id } = await createOrder(ctx);
      await ctx.sandbox.reject(id);
      await statusReached(ctx, id, 'CANCELED');
      return id;
    },
  },
  {
    status: 'CANCELED',
    how: 'approved, then cancelled through the market',
    async reach(ctx) {
      const id = await approvedOrder(ctx);
      expectAccepted(await postAction(ctx, id, 'cancel'), id, 'for cancelling an APPROVED order');
      await statusReached(ctx, id, 'CANCELED');
      return id;
    },
  },
  {
    status: 'PAID',
    how: 'approved, ready and paid by the provider',
    async reach(ctx) {
      const id = await approvedOrder(ctx);
      await ctx.sandbox.ready(id);
      await statusReached(ctx, id, 'DISBURSING');
      await ctx.sandbox.paid(id);
      await statusReached(ctx, id, 'PAID');
      return id;
    },
  },
  {
    // The one status that allows one action and not the other: a market that reads "cancel until the
    // money moved" or "DISBURSING means already disbursed" fails one of the two.
    status: 'DISBURSING',
    how: 'approved and ready, every disbursement failing at the service',
    allows: 'disburse',
    async reach(ctx) {
      const id = await approvedOrder(ctx);
      // A market that disburses on readiness would be PAID at once: the service fails its
      // disbursements until the state is done (cleared after it), so the order stays DISBURSING.
      await ctx.sandbox.injectFault({
        operation: 'disburseOrder',
        action: 'error',
        status: 503,
        times: 1000,
      });
      await ctx.sandbox.ready(id);
      // Read through the status endpoint, which reconciles with the service (R-EP-05): the market
      // may answer the readiness webhook with an error while its disbursement fails.
      await pollUntil(
        async () => ((await marketStatus(ctx, id)).status === 'DISBURSING' ? true : undefined),
        {
          timeoutMs: MARKET_EFFECT_WAIT_MS,
          what: `the market to report ${id} DISBURSING after the provider's readiness`,
        },
      );
      return id;
    },
  },
  {
    status: 'CANCELING',
    how: "approved, then the provider's CANCELING update",
    async reach(ctx) {
      const id = await approvedOrder(ctx);
      await deliver(ctx, statusEvent(id, 'CANCELING'), `CANCELING for the APPROVED order ${id}`);
      return id;
    },
  },
];

/** Both actions on an order in `state`: the refused ones first (the allowed one may move it on). */
async function actOnState(ctx: CheckContext, state: RefusingState, wrong: string[]): Promise<void> {
  const id = await state.reach(ctx);
  // The refused action first: the allowed one may move the order on.
  const actions = (['cancel', 'disburse'] as const).filter((a) => a !== state.allows);
  for (const action of actions) {
    const since = await ctx.sandbox.lastCallId();
    const exchange = await postAction(ctx, id, action);
    // A status that allows disbursing (DISBURSING) may see the market's own disbursement on
    // readiness, retried with the service's webhook while the service fails it: not the refused
    // action's call. Every other status allows neither, so any call is one the refusal made.
    const operations = state.allows === 'disburse' ? ['revertOrder'] : ['revertOrder', 'disburseOrder'];
    const reached = (await ctx.sandbox.serviceCalls(since)).filter(
      (c) => operations.includes(c.operation) && c.path.includes(encodeURIComponent(id)),
    );
    const problem = exchange.status === 409 && exchange.mediaType() === 'application/problem+json';
    if (!problem || reached.length > 0)
      wrong.push(
        `${action} of a ${state.status} order (${state.how}, ${id}): HTTP ${exchange.status} ${exchange.text.slice(0, 160)}; ${reached.length} call(s) at the service`,
      );
  }
  if (state.allows !== undefined) {
    // Allowed: whatever the service's failure makes of it, not the market's 409 refusal.
    const exchange = await postAction(ctx, id, state.allows);
    if (exchange.status === 409)
      wrong.push(
        `${state.allows} of a ${state.status} order (${state.how}, ${id}): HTTP 409 ${exchange.text.slice(0, 160)}, though ${state.status} allows it`,
      );
  }
}

export const orderActionChecks: ContractCheck[] = [
  {
    id: 'orders.actions.state-table',
    title:
      'Cancel and disburse of an order in each status that allows neither (PENDING, CANCELING, CANCELED, PAID), and cancel of a DISBURSING one, are 409 problems that reach nothing at the service; disburse of a DISBURSING one is no 409',
    modes: DATA_SHARING_ONLY,
    spec: 'WIRE §3, §5',
    rules: ['R-EP-06', 'R-EP-08', 'R-ERR-08'],
    async run(ctx) {
      const wrong: string[] = [];
      for (const state of REFUSING_STATES) {
        try {
          await actOnState(ctx, state, wrong);
        } finally {
          // The faults a state was reached with (DISBURSING's failing disbursements).
          await ctx.sandbox.clearFaults();
        }
      }
      ensure(wrong.length === 0, {
        expected:
          '409 problem+json and no service call for each action the status does not allow (cancel only from APPROVED, R-EP-06; disburse only from APPROVED or DISBURSING, R-EP-08), and no 409 for disbursing a DISBURSING order',
        actual: wrong.join('\n    '),
        spec: 'WIRE §5',
      });
    },
  },
  pendingOrderRefused('cancel', async (ctx, id) => {
    const atService = await ctx.sandbox.order(id);
    ensure(atService?.status === 'PENDING', {
      expected: 'the refused cancel not to reach the service',
      actual: `the service's order is ${atService?.status}`,
    });
  }),
  {
    id: 'orders.cancel.approved-order',
    title:
      'Cancelling an APPROVED order is accepted (202) and reverts it at the service; a second cancel is 409',
    modes: DATA_SHARING_ONLY,
    spec: 'WIRE §5',
    rules: ['R-EP-06'],
    async run(ctx) {
      const id = await approvedOrder(ctx);
      expectAccepted(await postAction(ctx, id, 'cancel'), id, 'for cancelling an APPROVED order');
      const atService = await ctx.sandbox.order(id);
      ensure(atService?.status === 'CANCELED' || atService?.status === 'CANCELING', {
        expected: 'the order to be reverted at the service (CANCELING or CANCELED)',
        actual: `the service's order is ${atService?.status}`,
      });
      const again = await postAction(ctx, id, 'cancel');
      expectProblem(again, 409, {
        what: 'for cancelling an order that is no longer APPROVED',
        spec: 'WIRE §5',
      });
    },
  },
  pendingOrderRefused('disburse', async (ctx, id) => {
    ensure((await ctx.sandbox.disbursements(id)) === 0, { expected: 'no disbursement for a PENDING order' });
  }),
  {
    id: 'orders.disburse.pays-once',
    title: 'Concurrent and repeated disburse requests for an APPROVED order pay it exactly once',
    modes: DATA_SHARING_ONLY,
    spec: 'WIRE §5',
    rules: ['R-EP-08', 'R-EP-09'],
    async run(ctx) {
      const id = await approvedOrder(ctx);
      // Five at once: enough to interleave a read and a write that no lock holds apart.
      const answers = await Promise.all(Array.from({ length: 5 }, () => postAction(ctx, id, 'disburse')));
      for (const exchange of answers) {
        expectStatus(exchange, [202, 409], 'for disbursing an APPROVED order (409 only once it is paid)');
      }
      ensure(
        answers.some((e) => e.status === 202),
        {
          expected: 'at least one of five concurrent disburse requests to be accepted (202)',
          actual: `statuses ${answers.map((e) => e.status).join(', ')}`,
        },
      );
      const later = await postAction(ctx, id, 'disburse');
      expectStatus(later, [202, 409], 'for disbursing an order again');
      const count = await ctx.sandbox.disbursements(id);
      ensure(count === 1, {
        expected: 'exactly one disbursement at the service (Idempotency-Key per order)',
        actual: `${count} disbursements`,
      });
    },
  },
  {
    id: 'orders.disburse.after-readiness',
    title: 'After the provider confirms readiness (DISBURSING) the order is disbursed, once',
    modes: DATA_SHARING_ONLY,
    spec: 'WIRE §3',
    rules: ['R-STATE-05', 'R-STATE-06'],
    async run(ctx) {
      const id = await approvedOrder(ctx);
      await ctx.sandbox.ready(id);
      await ctx.sandbox.awaitStatusDelivery(id, 'DISBURSING');
      const exchange = await postAction(ctx, id, 'disburse');
      if (exchange.status === 409) {
        // Allowed only when the market already disbursed on its own after the readiness webhook.
        const atService = await ctx.sandbox.order(id);
        if (atService?.status !== 'PAID') {
          fail({ expected: '202 for disbursing a DISBURSING order', exchange, spec: 'WIRE §5' });
        }
      } else {
        expectAccepted(exchange, id, 'for disbursing a DISBURSING order');
      }
      const count = await pollUntil(
        async () => {
          const n = await ctx.sandbox.disbursements(id);
          return n > 0 ? n : undefined;
        },
        { timeoutMs: MARKET_EFFECT_WAIT_MS, what: `a disbursement of ${id} at the service` },
      );
      ensure(count === 1, { expected: 'exactly one disbursement', actual: `${count} disbursements` });
    },
  },
  ...(['cancel', 'disburse'] as const).map(
    (action): ContractCheck => ({
      id: `orders.${action}.unknown-order`,
      title: `${GERUND[action]} an unknown order is a 404 problem`,
      modes: DATA_SHARING_ONLY,
      spec: 'WIRE §2',
      rules: ['R-ERR-07'],
      async run(ctx) {
        const exchange = await ctx.http.send(orderPath(ctx, ctx.unique('ord_unknown'), action), {
          method: 'POST',
          headers: { ...ctx.systemAuth },
        });
        expectProblem(exchange, 404, { what: `for ${action} of an order the market does not know` });
      },
    }),
  ),
];

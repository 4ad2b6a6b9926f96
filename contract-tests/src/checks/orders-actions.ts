/**
 * Cancel and disburse (WIRE §5, data-sharing mode): 409 unless the order is in a state that allows
 * the action, 202 `{ id, status }` otherwise, and a disbursement is paid once however often it is asked.
 */

import { ORDER_STATUSES, type OrderStatus } from '@bnpl-kit/core';
import { pollUntil } from '@bnpl-kit/core/testing';
import { ACTION_ALLOWED_FROM, ORDER_ACTIONS, type OrderAction } from '@bnpl-kit/core/wire';
import { ensure, expectJsonObject, expectProblem, expectStatus, fail } from '../expect.js';
import type { HttpExchange } from '../http.js';
import { approvedOrder, statusReached } from '../support/approvals.js';
import { createOrder, marketStatus, orderPath, postAction } from '../support/orders.js';
import { isCallOnOrder } from '../support/own-calls.js';
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

/** An order the market holds in a given status, and how it got there. */
interface StatusRecipe {
  how: string;
  /** The order's ID; `cleanUp` runs once the actions were tried (the faults a recipe left in place). */
  reach(ctx: CheckContext): Promise<{ id: string; cleanUp?: () => Promise<void> }>;
}

/**
 * The disburse calls the service refuses while an order is held DISBURSING: more than any market
 * retries within one check, so the market's own disbursement on readiness cannot move it to PAID.
 */
const HOLD_DISBURSEMENT = 100;

/**
 * A way to reach every status of WIRE §3, each the way a real order reaches it (CANCELING as the
 * provider's status update, which the service cannot hold; DISBURSING as the provider's readiness
 * while the service refuses the market's disbursement, which a data-sharing market asks for at once).
 * Keyed by status, so a status the protocol adds cannot go without one.
 */
const STATUS_RECIPES: Readonly<Record<OrderStatus, readonly StatusRecipe[]>> = {
  PENDING: [{ how: 'a new order', reach: async (ctx) => ({ id: (await createOrder(ctx)).id }) }],
  APPROVED: [{ how: 'approved by the provider', reach: async (ctx) => ({ id: await approvedOrder(ctx) }) }],
  DISBURSING: [
    {
      how: "approved and ready, the market's disbursement refused for now",
      async reach(ctx) {
        const id = await approvedOrder(ctx);
        await ctx.sandbox.injectFault({
          operation: 'disburseOrder',
          action: 'error',
          status: 503,
          times: HOLD_DISBURSEMENT,
          order_id: id,
        });
        const cleanUp = () => ctx.sandbox.clearFaults();
        try {
          await ctx.sandbox.ready(id);
          // Not the webhook's acknowledgement: a market that disburses on readiness may refuse the
          // delivery while its disbursement fails (the service delivers it again). Its status read
          // reconciles with the service's DISBURSING (R-EP-05), whatever the webhook did.
          const { status, exchange } = await marketStatus(ctx, id);
          ensure(status === 'DISBURSING', {
            expected: `DISBURSING for an order the service holds DISBURSING (R-EP-05), its disbursement refused for now`,
            exchange,
            spec: 'WIRE §5',
          });
        } catch (error) {
          await cleanUp();
          throw error;
        }
        return { id, cleanUp };
      },
    },
  ],
  CANCELING: [
    {
      how: "approved, then the provider's CANCELING update",
      async reach(ctx) {
        const id = await approvedOrder(ctx);
        await deliver(ctx, statusEvent(id, 'CANCELING'), `CANCELING for the APPROVED order ${id}`);
        return { id };
      },
    },
  ],
  CANCELED: [
    {
      how: 'rejected by the provider',
      async reach(ctx) {
        const { id } = await createOrder(ctx);
        await ctx.sandbox.reject(id);
        await statusReached(ctx, id, 'CANCELED');
        return { id };
      },
    },
    {
      how: 'approved, then cancelled through the market',
      async reach(ctx) {
        const id = await approvedOrder(ctx);
        expectAccepted(await postAction(ctx, id, 'cancel'), id, 'for cancelling an APPROVED order');
        await statusReached(ctx, id, 'CANCELED');
        return { id };
      },
    },
  ],
  PAID: [
    {
      how: 'approved, ready and paid by the provider',
      async reach(ctx) {
        const id = await approvedOrder(ctx);
        await ctx.sandbox.ready(id);
        await statusReached(ctx, id, 'DISBURSING');
        await ctx.sandbox.paid(id);
        await statusReached(ctx, id, 'PAID');
        return { id };
      },
    },
  ],
};

/** The actions `status` refuses (R-EP-06, R-EP-08, from core's table). */
const refusedFrom = (status: OrderStatus): OrderAction[] =>
  ORDER_ACTIONS.filter((action) => !ACTION_ALLOWED_FROM[action].includes(status));

/** "cancel from PENDING, DISBURSING, …; disburse from …": every refused cell of the table. */
const refusedCells = ORDER_ACTIONS.map(
  (action) =>
    `${action} from ${ORDER_STATUSES.filter((status) => !ACTION_ALLOWED_FROM[action].includes(status)).join(', ')}`,
).join('; ');

export const orderActionChecks: ContractCheck[] = [
  {
    id: 'orders.actions.state-table',
    title: `Every action from a status that does not allow it (${refusedCells}) is a 409 problem that reaches nothing at the service; an action the status allows is no 409`,
    modes: DATA_SHARING_ONLY,
    spec: 'WIRE §3, §5',
    rules: ['R-EP-06', 'R-EP-08', 'R-ERR-08'],
    async run(ctx) {
      const wrong: string[] = [];
      for (const status of ORDER_STATUSES) {
        const actions = refusedFrom(status);
        if (actions.length === 0) continue;
        for (const recipe of STATUS_RECIPES[status]) {
          const { id, cleanUp } = await recipe.reach(ctx);
          try {
            // The refused actions first: an allowed one may move the order on.
            for (const action of actions) {
              const since = await ctx.sandbox.lastCallId();
              const exchange = await postAction(ctx, id, action);
              const reached = (await ctx.sandbox.serviceCalls(since)).filter(
                (c) =>
                  (c.operation === 'revertOrder' || c.operation === 'disburseOrder') &&
                  isCallOnOrder(c, id) &&
                  // The market's own retries of the disbursement a recipe holds back are not the action.
                  !(action === 'cancel' && c.operation === 'disburseOrder'),
              );
              const problem = exchange.status === 409 && exchange.mediaType() === 'application/problem+json';
              if (!problem || reached.length > 0)
                wrong.push(
                  `${action} of a ${status} order (${recipe.how}, ${id}): HTTP ${exchange.status} ${exchange.text.slice(0, 160)}; ${reached.length} call(s) at the service`,
                );
            }
            // What the status allows is never refused as a transition: whatever the service makes
            // of it, no 409. (APPROVED, which refuses nothing, is skipped above: its accepted
            // actions have checks of their own.)
            for (const action of ORDER_ACTIONS.filter((a) => !actions.includes(a))) {
              const exchange = await postAction(ctx, id, action);
              if (exchange.status === 409)
                wrong.push(
                  `${action} of a ${status} order (${recipe.how}, ${id}): HTTP 409 ${exchange.text.slice(0, 160)}, though ${status} allows it`,
                );
            }
          } finally {
            await cleanUp?.();
          }
        }
      }
      ensure(wrong.length === 0, {
        expected: `409 problem+json and no service call for each action the status does not allow (cancel only from ${ACTION_ALLOWED_FROM.cancel.join(' or ')}, R-EP-06; disburse only from ${ACTION_ALLOWED_FROM.disburse.join(' or ')}, R-EP-08)`,
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
      const answers = await ctx.http.together(
        Array.from({ length: 5 }, () => () => postAction(ctx, id, 'disburse')),
      );
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

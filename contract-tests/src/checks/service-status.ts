/**
 * Tolerant reading of the service's answers (WIRE §6): a real service grows new order statuses, and
 * an answer carrying one is never a 502. The sandbox answers the operation with `order_status`
 * replaced by a value outside the six (its `unknown_status` fault, the operation itself done); the
 * market keeps its stored status and reports the raw value as `service_status` (WIRE §5).
 */
import { ensure, expectJsonObject, expectStatus } from '../expect.js';
import type { HttpExchange } from '../http.js';
import { approvedAtService } from '../support/approvals.js';
import { withFaults } from '../support/faults.js';
import { postAction, postOrder, sampleOrder, statusPath } from '../support/orders.js';
import { BOTH_MODES, type CheckContext, type ContractCheck } from '../types.js';

/** A status no version of the protocol has (so no market can know it). */
const NEW_STATUS = 'ON_HOLD_FOR_REVIEW';

/**
 * `send` while the service answers `operation` once with `order_status: NEW_STATUS` (on order
 * `orderId` only, when the operation acts on one). Its webhooks are held back meanwhile, so that the
 * stored status the answer reports is the one before the call.
 */
async function withNewStatus(
  ctx: CheckContext,
  operation: string,
  send: () => Promise<HttpExchange>,
  orderId?: string,
): Promise<HttpExchange> {
  return withFaults(
    ctx,
    [
      { action: 'drop', times: 5 },
      {
        operation,
        action: 'unknown_status',
        order_status: NEW_STATUS,
        ...(orderId !== undefined && { order_id: orderId }),
      },
    ],
    send,
  );
}

function expectReported(exchange: HttpExchange, status: string, what: string): void {
  const body = expectJsonObject(exchange, what);
  ensure(body.status === status && body.service_status === NEW_STATUS, {
    expected: `status ${status} (the stored one) and service_status ${NEW_STATUS} (the service's raw value) ${what}`,
    actual: `status ${JSON.stringify(body.status)}, service_status ${JSON.stringify(body.service_status)}`,
    exchange,
    spec: 'WIRE §5, §6',
  });
}

export const serviceStatusChecks: ContractCheck[] = [
  {
    id: 'orders.create.unknown-service-status',
    title:
      "A create answer with an order_status outside the six stores the order as PENDING and reports the service's value",
    modes: BOTH_MODES,
    spec: 'WIRE §6',
    rules: ['R-SVC-11', 'R-EP-19', 'R-SVC-15'],
    async run(ctx) {
      const request = sampleOrder(ctx.unique('ref'));
      const created = await withNewStatus(ctx, 'createOrder', () => postOrder(ctx, request));
      const what = `for creating an order the service answered with order_status ${NEW_STATUS}`;
      expectStatus(created, 201, what, 'WIRE §6');
      expectReported(created, 'PENDING', what);
      // The same create again is answered from the market's record, without a service call: the
      // service's value of the first answer is not stored, so it is not reported (R-SVC-15).
      const replayed = await postOrder(ctx, request);
      expectStatus(replayed, 200, 'for the same create request again (R-EP-02)', 'WIRE §5');
      const body = expectJsonObject(replayed, 'for the repeated create');
      ensure(body.status === 'PENDING' && body.service_status === undefined, {
        expected: `the stored order, status PENDING and no service_status, for the create repeated without a service call`,
        exchange: replayed,
        spec: 'WIRE §6',
        rule: 'R-SVC-15',
      });
    },
  },
  {
    id: 'orders.status.unknown-service-status',
    title:
      "A status or action answer of the service with an order_status outside the six keeps the stored status and reports the service's value",
    modes: BOTH_MODES,
    spec: 'WIRE §6',
    rules: ['R-EP-19', 'R-SVC-11'],
    async run(ctx) {
      const { order } = await approvedAtService(ctx);
      const status = await withNewStatus(
        ctx,
        'getOrder',
        () => ctx.http.send(statusPath(ctx, order.id), { headers: { ...ctx.systemAuth } }),
        order.id,
      );
      const what = `for the status of an APPROVED order the service answered with order_status ${NEW_STATUS}`;
      expectStatus(status, 200, what, 'WIRE §6');
      expectReported(status, 'APPROVED', what);
      if (ctx.mode !== 'data-sharing') return;
      const cancel = await withNewStatus(
        ctx,
        'revertOrder',
        () => postAction(ctx, order.id, 'cancel'),
        order.id,
      );
      const cancelled = `for cancelling an APPROVED order the service answered with order_status ${NEW_STATUS}`;
      expectStatus(cancel, 202, cancelled, 'WIRE §6');
      expectReported(cancel, 'APPROVED', cancelled);
    },
  },
];

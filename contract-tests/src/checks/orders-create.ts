/** Order creation (WIRE §5): the record, idempotency on `reference_id`, content type and JSON. */
import { ORDER_STATUSES } from '@bnpl-kit/core';
import { ensure, expectJsonObject, expectProblem, expectStatus, isObject } from '../expect.js';
import { createOrder, postOrder, sampleOrder, sampleOrderOfQuantity } from '../support/orders.js';
import { routeUrl } from '../support/routes.js';
import { BOTH_MODES, type CheckContext, type ContractCheck } from '../types.js';

/** A create request the market cannot read as an order: refused before any validation (WIRE §2). */
interface UnreadableBody {
  id: string;
  title: string;
  contentType: string;
  body(ctx: CheckContext): string;
  status: number;
  what: string;
  rules: string[];
}

const UNREADABLE_BODIES: UnreadableBody[] = [
  {
    id: 'orders.create.wrong-content-type',
    title: 'An order body sent as text/plain is refused with 415',
    contentType: 'text/plain',
    body: (ctx) => JSON.stringify(sampleOrder(ctx.unique('ref'))),
    status: 415,
    what: 'for a JSON body sent with Content-Type: text/plain',
    rules: ['R-ERR-10'],
  },
  {
    id: 'orders.create.invalid-json',
    title: 'A body that is not JSON is a 400 problem',
    contentType: 'application/json',
    body: () => '{"reference_id": "unterminated',
    status: 400,
    what: 'for a body that is not JSON',
    rules: ['R-ERR-02', 'R-ERR-04'],
  },
];

function unreadableBodyCheck(c: UnreadableBody): ContractCheck {
  return {
    id: c.id,
    title: c.title,
    modes: BOTH_MODES,
    spec: 'WIRE §2',
    rules: c.rules,
    async run(ctx) {
      const exchange = await ctx.http.send(routeUrl(ctx, 'createOrder'), {
        method: 'POST',
        headers: { ...ctx.systemAuth, 'content-type': c.contentType },
        body: c.body(ctx),
      });
      expectProblem(exchange, c.status, { what: c.what });
    },
  };
}

export const orderCreateChecks: ContractCheck[] = [
  {
    id: 'orders.create.valid',
    title: 'A valid order is created: 201 with id, totalAmount, reference_id and status',
    modes: BOTH_MODES,
    spec: 'WIRE §5',
    rules: ['R-EP-01', 'R-EP-20', 'R-SVC-01', 'R-SVC-08', 'R-SVC-09'],
    async run(ctx) {
      const request = sampleOrder(ctx.unique('ref'));
      const { id, record, exchange } = await createOrder(ctx, request);
      const total = record.totalAmount;
      const sent = request.total_amount;
      ensure(isObject(total) && total.value === sent.value && total.currency === sent.currency, {
        expected:
          '"totalAmount" (camelCase, as the specification names it) equal to the request\'s total_amount',
        exchange,
        spec: 'spec: Order record',
      });
      ensure(record.reference_id === request.reference_id, { expected: '"reference_id" echoed', exchange });
      ensure(record.status === 'PENDING', {
        expected: `"status": "PENDING" for a new order (one of ${ORDER_STATUSES.join(', ')})`,
        exchange,
        spec: 'WIRE §3',
      });
      const atService = await ctx.sandbox.order(id);
      ensure(atService?.referenceId === request.reference_id, {
        expected: `"id" to be the service's order ID (webhooks carry it as order_id), but the service has no order ${id} for this reference`,
        exchange,
        spec: 'spec: Order record',
      });
    },
  },
  {
    id: 'orders.create.idempotent-replay',
    title: 'The same reference_id with the same content returns the existing order (200, same id)',
    modes: BOTH_MODES,
    spec: 'WIRE §5',
    rules: ['R-EP-02'],
    async run(ctx) {
      const request = sampleOrder(ctx.unique('ref'));
      const first = await createOrder(ctx, request);
      const again = await postOrder(ctx, request);
      expectStatus(again, 200, 'with the existing order for a repeated create request', 'WIRE §5');
      ensure(expectJsonObject(again, 'for a repeated create request').id === first.id, {
        expected: `the existing order ${first.id}`,
        exchange: again,
      });
      // Same content, other key order: a retrying client may serialize differently.
      const { order_lines, total_amount, reference_id } = request;
      const reordered = await postOrder(ctx, { order_lines, total_amount, reference_id });
      expectStatus(reordered, 200, 'for the same content with the JSON keys in another order', 'WIRE §5');
      const atService = await ctx.sandbox.ordersByReference(request.reference_id);
      ensure(atService.length === 1, {
        expected: 'exactly one order at the service for the reference_id',
        actual: `${atService.length} orders at the service`,
      });
    },
  },
  {
    id: 'orders.create.idempotency-conflict',
    title: 'The same reference_id with different content is a 409 problem',
    modes: BOTH_MODES,
    spec: 'WIRE §5',
    rules: ['R-EP-03', 'R-ERR-08'],
    async run(ctx) {
      const request = sampleOrder(ctx.unique('ref'));
      await createOrder(ctx, request);
      const changed = sampleOrderOfQuantity(request.reference_id, request.order_lines[0]!.quantity + 1);
      const exchange = await postOrder(ctx, changed);
      expectProblem(exchange, 409, { what: 'for a reused reference_id with other content', spec: 'WIRE §5' });
    },
  },
  ...UNREADABLE_BODIES.map(unreadableBodyCheck),
];

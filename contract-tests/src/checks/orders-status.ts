/** The order status endpoint (WIRE §5) and authentication of every market-system endpoint. */
import { dateTimeWithOffset, type MarketRouteDefinition } from '@bnpl-kit/core/wire';
import { ensure, expectJsonObject, expectProblem, expectStatus, isObject } from '../expect.js';
import type { HttpExchange } from '../http.js';
import { approvedAtService, approvedUnannounced } from '../support/approvals.js';
import { headerValueNearMisses } from '../support/credentials.js';
import { createOrder, expectMarketStatus, marketStatus, sampleOrder, statusPath } from '../support/orders.js';
import { MARKET_ROUTES, routeLabel, routesServed, routeUrl } from '../support/routes.js';
import { deliver, statusEvent } from '../support/webhooks.js';
import { BOTH_MODES, type CheckContext, type ContractCheck } from '../types.js';

/**
 * The market systems' credentials with one header's value replaced by each of its near misses,
 * the other headers as they are: `[what, headers]`.
 */
function nearMissCredentials(auth: Readonly<Record<string, string>>): [string, Record<string, string>][] {
  return Object.entries(auth).flatMap(([name, value]) =>
    headerValueNearMisses(value).map(([what, near]): [string, Record<string, string>] => [
      `${name}: ${what}`,
      { ...auth, [name]: near },
    ]),
  );
}

/** The record's `updated_at`, as sent and as a time. */
async function updatedAtRead(ctx: CheckContext, id: string) {
  const { exchange } = await marketStatus(ctx, id);
  const body = expectJsonObject(exchange, 'for the order status');
  const text = String(body.updated_at);
  return { text, time: Date.parse(text), exchange };
}

/** R-EP-26: an RFC 3339 date-time with its offset (core's schema, the one the documents carry). */
const isDateTimeWithOffset = (value: unknown) => dateTimeWithOffset.safeParse(value).success;

/** `updatedAtRead`, which must be a date-time (R-EP-04). */
async function updatedAt(ctx: CheckContext, id: string, when: string) {
  const read = await updatedAtRead(ctx, id);
  ensure(isDateTimeWithOffset(read.text), {
    expected: `an RFC 3339 "updated_at" with its offset (Z or ±HH:MM) ${when}`,
    exchange: read.exchange,
    spec: 'WIRE §5',
  });
  return read;
}

/**
 * Each endpoint the market's own systems call in this mode (the route table's `market-systems`
 * routes), sent with `headers` only: a body where the route takes one, the order for a path `:id`.
 */
function systemCalls(
  ctx: CheckContext,
  orderId: string,
): { what: string; send(h: Record<string, string>): Promise<HttpExchange> }[] {
  return routesServed(ctx.mode)
    .filter((operation) => MARKET_ROUTES[operation].auth === 'market-systems')
    .map((operation) => {
      const route = MARKET_ROUTES[operation] as MarketRouteDefinition;
      const url = routeUrl(ctx, operation, route.params?.id === undefined ? {} : { id: orderId });
      const json = route.request?.required ? sampleOrder(ctx.unique('ref')) : undefined;
      return {
        what: routeLabel(operation),
        send: (headers: Record<string, string>) =>
          ctx.http.send(url, { method: route.method, headers, ...(json !== undefined && { json }) }),
      };
    });
}

export const orderStatusChecks: ContractCheck[] = [
  {
    id: 'orders.status.reports-order',
    title: 'The status endpoint answers id, reference_id, status, total_amount and updated_at',
    modes: BOTH_MODES,
    spec: 'WIRE §5',
    rules: ['R-EP-04', 'R-EP-26', 'R-STATE-01', 'R-EP-19', 'R-EP-20'],
    async run(ctx) {
      const order = await createOrder(ctx);
      const exchange = await ctx.http.send(statusPath(ctx, order.id), { headers: { ...ctx.systemAuth } });
      expectStatus(exchange, 200, 'with the order status information');
      const body = expectJsonObject(exchange, 'for the order status');
      const total = body.total_amount;
      const sent = order.request.total_amount;
      const fields =
        body.id === order.id &&
        body.reference_id === order.referenceId &&
        body.status === 'PENDING' &&
        isObject(total) &&
        total.value === sent.value &&
        total.currency === sent.currency &&
        isDateTimeWithOffset(body.updated_at) &&
        // R-EP-19: service_status only beside a service status outside the six (PENDING is one).
        !('service_status' in body);
      ensure(fields, {
        expected: `{ id: "${order.id}", reference_id: "${order.referenceId}", status: "PENDING", total_amount: { value: "${sent.value}", currency: "${sent.currency}" }, updated_at: <RFC 3339 date-time with Z or ±HH:MM> } (no service_status: the service's PENDING is one of the six, R-EP-19)`,
        exchange,
      });
    },
  },
  {
    id: 'orders.status.follows-service',
    title: 'After the provider approves, the status endpoint reports APPROVED',
    modes: BOTH_MODES,
    spec: 'WIRE §5',
    rules: ['R-EP-05'],
    async run(ctx) {
      const { order } = await approvedAtService(ctx);
      await expectMarketStatus(ctx, order.id, 'APPROVED', 'the provider approved it');
    },
  },
  {
    id: 'orders.status.reconciled',
    title:
      'An order the provider approved whose webhook never came is reported APPROVED: the record reconciled with the service on read',
    modes: BOTH_MODES,
    spec: 'WIRE §5',
    rules: ['R-EP-05'],
    async run(ctx) {
      // APPROVED at the service, its webhook dropped: only the read itself can bring the record up.
      const order = await approvedUnannounced(ctx);
      await expectMarketStatus(
        ctx,
        order.id,
        'APPROVED',
        'the service holds it APPROVED; its webhook was not delivered, and the record is never behind the service (R-EP-05)',
      );
    },
  },
  {
    id: 'orders.status.updated-at',
    title:
      'updated_at is when the status last changed: reads and updates that change nothing leave it, a forward move does not put it back',
    modes: BOTH_MODES,
    spec: 'WIRE §5',
    rules: ['R-EP-24', 'R-STATE-03'],
    async run(ctx) {
      const order = await createOrder(ctx);
      // Moved by certify's own webhook: the service holds the order PENDING, so a read reconciles nothing.
      await deliver(ctx, statusEvent(order.id, 'APPROVED'), `APPROVED for the PENDING order ${order.id}`);
      const moved = await updatedAt(ctx, order.id, 'after the APPROVED update');
      // Between the reads: a repeated status and a backward one, each acknowledged and changing nothing.
      for (const status of ['APPROVED', 'PENDING'] as const)
        await deliver(
          ctx,
          statusEvent(order.id, status),
          `${status} for the APPROVED order ${order.id} (no move)`,
        );
      const { text: again, exchange } = await updatedAtRead(ctx, order.id);
      ensure(again === moved.text, {
        expected: `updated_at ${moved.text}, as after the APPROVED update: two reads and two updates that changed nothing came since (R-EP-24)`,
        actual: `updated_at ${again}`,
        exchange,
        spec: 'WIRE §5',
      });
      await deliver(ctx, statusEvent(order.id, 'CANCELED'), `CANCELED for the APPROVED order ${order.id}`);
      const canceled = await updatedAt(ctx, order.id, 'after the CANCELED update');
      ensure(canceled.time >= moved.time, {
        expected: `updated_at at or after ${moved.text} once the order moved on to CANCELED`,
        actual: `updated_at ${canceled.text}`,
        exchange: canceled.exchange,
        spec: 'WIRE §5',
      });
    },
  },
  {
    id: 'orders.status.unknown-order',
    title: 'The status of an order unknown to the service is a 404 problem',
    modes: BOTH_MODES,
    spec: 'WIRE §2',
    rules: ['R-ERR-07'],
    async run(ctx) {
      const exchange = await ctx.http.send(statusPath(ctx, ctx.unique('ord_unknown')), {
        headers: { ...ctx.systemAuth },
      });
      expectProblem(exchange, 404, { what: 'for an order ID the service does not know' });
    },
  },
  {
    id: 'auth.systems.missing-credentials',
    title: 'Every market-system endpoint refuses a request without credentials (401)',
    modes: BOTH_MODES,
    spec: 'spec: Authentication',
    rules: ['R-EP-21', 'R-ERR-05'],
    async run(ctx) {
      const order = await createOrder(ctx);
      for (const call of systemCalls(ctx, order.id)) {
        const exchange = await call.send({});
        expectProblem(exchange, 401, {
          what: `for ${call.what} without credentials`,
          code: 'unauthenticated',
          spec: 'spec: Authentication',
        });
      }
      await expectMarketStatus(ctx, order.id, 'PENDING', 'no authenticated call changed it');
    },
  },
  {
    id: 'auth.systems.wrong-credentials',
    title:
      'Every market-system endpoint refuses a wrong token, however near the right one: changed, shortened, extended, in the other case, a prefix, empty (401)',
    modes: BOTH_MODES,
    spec: 'spec: Authentication',
    rules: ['R-EP-21', 'R-ERR-05'],
    async run(ctx) {
      const order = await createOrder(ctx);
      const wrong: [string, Record<string, string>][] = [
        ['an unknown bearer token', { authorization: `Bearer ${ctx.unique('not-the-market-token')}` }],
        ...nearMissCredentials(ctx.systemAuth),
      ];
      const accepted: string[] = [];
      for (const call of systemCalls(ctx, order.id)) {
        for (const [what, headers] of wrong) {
          const exchange = await call.send(headers);
          if (exchange.status !== 401) accepted.push(`${call.what} with ${what}: HTTP ${exchange.status}`);
          else
            expectProblem(exchange, 401, {
              what: `for ${call.what} with ${what}`,
              code: 'unauthenticated',
              spec: 'spec: Authentication',
            });
        }
      }
      ensure(accepted.length === 0, {
        expected: 'a 401 problem for every wrong credential (R-EP-21: only valid credentials)',
        actual: accepted.join('\n    '),
        spec: 'spec: Authentication',
      });
      await expectMarketStatus(ctx, order.id, 'PENDING', 'no authenticated call changed it');
    },
  },
];

/**
 * A route answers its own method only. A market that routes on the path alone (a PHP front
 * controller, `app.all`, a Flask view without `methods=`) cancels an order on a `GET` a crawler or
 * a prefetching browser sends, or lets `PUT /orders` create one outside the documented request.
 *
 * Derived from the route table: every route of the mode is sent every other common method, with
 * the credentials its `auth` asks for and, where the method carries one, the body the route would
 * act on (a valid order, a signed event, the user's own push, a filter request): a `{}` would be
 * refused by the route's own validation, so a route matched on its path alone would pass. Each must
 * be refused with a 4xx (the kit: 405 with `Allow`; 404 is as good) and change nothing: no order or
 * claim call reaches the service and the order the requests named keeps its status.
 *
 * A basic-mode market serves none of the data-sharing routes (R-EP-25): the same acting requests,
 * with the route's own method, are each a 4xx there and reach nothing at the service.
 */
import { type MarketRouteDefinition, marketOperationsFor } from '@bnpl-kit/core/wire';
import { ensure } from '../expect.js';
import { approvedOrder } from '../support/approvals.js';
import { createOrder, expectMarketStatus, sampleOrder } from '../support/orders.js';
import { callsOfCheck } from '../support/own-calls.js';
import {
  credentialsFor,
  MARKET_ROUTES,
  type MarketOperation,
  routeLabel,
  routesServed,
  routeUrl,
} from '../support/routes.js';
import { bearer, signedInUsers } from '../support/users.js';
import { statusEvent } from '../support/webhooks.js';
import { BOTH_MODES, type CheckContext, type ContractCheck } from '../types.js';

const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;
const WITH_BODY = new Set<string>(['POST', 'PUT', 'PATCH']);

/** The service operations that change something there. */
const EFFECTS = new Set(['createOrder', 'revertOrder', 'disburseOrder', 'pushClaimTokens']);

/** The methods no route of the mode serves at `operation`'s path (another route may share it). */
function otherMethods(operation: MarketOperation, served: readonly MarketOperation[]): string[] {
  const path = (op: MarketOperation) => JSON.stringify((MARKET_ROUTES[op] as MarketRouteDefinition).path);
  const taken = new Set<string>(
    served.filter((op) => path(op) === path(operation)).map((op) => MARKET_ROUTES[op].method),
  );
  return METHODS.filter((method) => !taken.has(method));
}

/**
 * The request `operation` would act on, with `method`: the credentials its `auth` asks for and, when
 * the method carries one, a body the route takes (an order `status` names the event a webhook
 * repeats). A user-session route gets the demo user's session when the market gives one (a basic
 * market need not: nothing in basic mode signs a user in), else an unknown one.
 */
/**
 * An order a wrongly routed request could move, and its status: APPROVED (an action could move it)
 * in data-sharing mode; PENDING (a create could not replace it) in basic mode.
 */
async function orderToActOn(ctx: CheckContext): Promise<[id: string, status: string]> {
  return ctx.mode === 'data-sharing'
    ? [await approvedOrder(ctx), 'APPROVED']
    : [(await createOrder(ctx)).id, 'PENDING'];
}

async function actingRequest(
  ctx: CheckContext,
  operation: MarketOperation,
  method: string,
  order: { id: string; status: string },
): Promise<{ url: string; method: string; headers: Record<string, string>; body?: string }> {
  const route = MARKET_ROUTES[operation] as MarketRouteDefinition;
  const url = routeUrl(ctx, operation, { id: order.id });
  const users = await ctx.users();
  const user = signedInUsers(users)[0];
  const localId = user?.id ?? users[0]?.id ?? 'certify-user';
  const json = async (): Promise<unknown> => {
    switch (operation) {
      case 'createOrder':
        return sampleOrder(ctx.unique('ref-method'));
      case 'pushClaims':
        return { id: localId, credify_id: await ctx.sandbox.serviceUserId(localId) };
      case 'filterOffers':
        return { local_id: localId, offers: [{ code: 'any', conditions: [], required_custom_scopes: [] }] };
      case 'receiveWebhook':
        return JSON.parse(statusEvent(order.id, order.status));
      default:
        return {};
    }
  };
  const body = WITH_BODY.has(method) ? JSON.stringify(await json()) : undefined;
  let headers: Record<string, string>;
  if (route.auth === 'webhook-signature') {
    // Signed as the service signs a delivery: the signature covers the body and the URL, not the method.
    const signed = await ctx.sandbox.signWebhook({
      url: ctx.webhookUrl,
      body: body ?? '',
      eventId: ctx.unique('evt-method'),
      timestamp: new Date(),
    });
    headers = { ...signed.headers };
  } else if (route.auth === 'user-session') {
    headers = bearer(user?.sessionToken ?? ctx.unique('no-session'));
  } else {
    headers = await credentialsFor(ctx, route.auth);
  }
  return {
    url,
    method,
    headers: body === undefined ? headers : { ...headers, 'content-type': 'application/json' },
    ...(body !== undefined && { body }),
  };
}

export const methodChecks: ContractCheck[] = [
  {
    id: 'methods.other-methods-refused',
    title:
      'Every route refuses the methods it does not serve (GET, POST, PUT, PATCH, DELETE) with a 4xx, and changes nothing',
    modes: BOTH_MODES,
    spec: 'WIRE §5',
    rules: ['R-EP-23'],
    async run(ctx) {
      const [id, status] = await orderToActOn(ctx);
      const since = await ctx.sandbox.lastCallId();
      const served = routesServed(ctx.mode);
      const wrong: string[] = [];
      for (const operation of served) {
        const route = MARKET_ROUTES[operation] as MarketRouteDefinition;
        for (const method of otherMethods(operation, served)) {
          const { url, ...request } = await actingRequest(ctx, operation, method, { id, status });
          const exchange = await ctx.http.send(url, request);
          if (exchange.status < 400 || exchange.status >= 500)
            wrong.push(
              `${method} on ${routeLabel(operation)} (served as ${route.method}): HTTP ${exchange.status}`,
            );
        }
      }
      const effects = callsOfCheck(await ctx.sandbox.serviceCalls(since), [id]).filter((call) =>
        EFFECTS.has(call.operation),
      );
      for (const call of effects)
        wrong.push(`the service received ${call.operation} (${call.method} ${call.path})`);
      ensure(wrong.length === 0, {
        expected: 'a 4xx for each method a route does not serve (R-EP-23), and no effect',
        actual: wrong.join('\n    '),
        spec: 'WIRE §5',
      });
      await expectMarketStatus(ctx, id, status, 'no request with another method changed it');
    },
  },
  {
    id: 'routes.basic-serves-no-data-sharing',
    title:
      'A basic-mode market serves none of the data-sharing routes (cancel, disburse, push-claims, offer filtering): each is a 4xx, and nothing reaches the service',
    modes: ['basic'],
    spec: 'WIRE §5; spec: Basic mode',
    rules: ['R-EP-25'],
    async run(ctx) {
      // Derived from the route table: every route the data-sharing mode serves and basic does not,
      // sent as a caller who would be let in, with a body the route would act on; a route with an
      // order ID names an order of its own that it could move (APPROVED), so one cannot hide another.
      const basic = new Set(routesServed('basic'));
      const others = marketOperationsFor('data-sharing', 'sandbox').filter((op) => !basic.has(op));
      const orders: string[] = [];
      for (const operation of others)
        if ((MARKET_ROUTES[operation] as MarketRouteDefinition).params?.id !== undefined)
          orders.push(await approvedOrder(ctx));
      const since = await ctx.sandbox.lastCallId();
      const wrong: string[] = [];
      let next = 0;
      for (const operation of others) {
        const route = MARKET_ROUTES[operation] as MarketRouteDefinition;
        const id = route.params?.id !== undefined ? orders[next++]! : '';
        const { url, ...request } = await actingRequest(ctx, operation, route.method, {
          id,
          status: 'APPROVED',
        });
        const exchange = await ctx.http.send(url, request);
        if (exchange.status < 400 || exchange.status >= 500)
          wrong.push(`${routeLabel(operation)} in basic mode: HTTP ${exchange.status}`);
      }
      const effects = callsOfCheck(await ctx.sandbox.serviceCalls(since), orders).filter((call) =>
        EFFECTS.has(call.operation),
      );
      for (const call of effects)
        wrong.push(`the service received ${call.operation} (${call.method} ${call.path})`);
      ensure(wrong.length === 0, {
        expected:
          'a 4xx (the kit: 404) for each data-sharing route in basic mode, and no claim token, cancel or disbursement at the service (R-EP-25)',
        actual: wrong.join('\n    '),
        spec: 'WIRE §5; spec: Basic mode',
      });
      for (const id of orders)
        await expectMarketStatus(ctx, id, 'APPROVED', 'no data-sharing route moved it in basic mode');
    },
  },
  {
    id: 'routes.exact-paths',
    title:
      "A path that only begins like a route's (a segment after it, text after its last segment) is no route: a 4xx that changes nothing",
    modes: BOTH_MODES,
    spec: 'WIRE §5',
    rules: ['R-ERR-07'],
    async run(ctx) {
      // Derived from the route table: every route of the mode, with its own method, credentials and a
      // body it would act on, at paths that only begin (or only end) like it. A router that matches
      // from the start only (Python's re.match, preg_match without `$`) cancels at `/cancel/x`.
      const [id, status] = await orderToActOn(ctx);
      const since = await ctx.sandbox.lastCallId();
      const wrong: string[] = [];
      for (const operation of routesServed(ctx.mode)) {
        const route = MARKET_ROUTES[operation] as MarketRouteDefinition;
        const { url, ...request } = await actingRequest(ctx, operation, route.method, { id, status });
        // (A segment before the path is left out: a market may be mounted under any prefix.)
        const near: [string, string][] = [['a segment after it', `${url}/x`]];
        // The last segment of a route with an ID at its end is the ID: text after it is another ID.
        if (!url.endsWith(`/${encodeURIComponent(id)}`))
          near.push(['text after its last segment', `${url}x`]);
        for (const [what, nearUrl] of near) {
          const exchange = await ctx.http.send(nearUrl, request);
          if (exchange.status < 400 || exchange.status >= 500)
            wrong.push(
              `${route.method} ${nearUrl.slice(ctx.marketUrl.length)} (${routeLabel(operation)} with ${what}): HTTP ${exchange.status}`,
            );
        }
      }
      const effects = callsOfCheck(await ctx.sandbox.serviceCalls(since), [id]).filter((call) =>
        EFFECTS.has(call.operation),
      );
      for (const call of effects)
        wrong.push(`the service received ${call.operation} (${call.method} ${call.path})`);
      ensure(wrong.length === 0, {
        expected: 'a 4xx (the kit: 404) for every path that is no route, and no effect (R-ERR-07)',
        actual: wrong.join('\n    '),
        spec: 'WIRE §5',
      });
      await expectMarketStatus(ctx, id, status, 'no request to a path next to a route changed it');
    },
  },
];

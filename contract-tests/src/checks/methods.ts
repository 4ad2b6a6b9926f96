/**
 * A route answers its own method only. A market that routes on the path alone (a PHP front
 * controller, `app.all`, a Flask view without `methods=`) cancels an order on a `GET` a crawler or
 * a prefetching browser sends, or lets `PUT /orders` create one outside the documented request.
 *
 * Derived from the route table: every route of the mode is sent every other common method, with
 * the credentials its `auth` asks for and a JSON body where the method carries one. Each must be
 * refused with a 4xx (the kit: 405 with `Allow`; 404 is as good) and change nothing: no order or
 * claim call reaches the service and the order the requests named keeps its status.
 */
import type { MarketRouteDefinition } from '@bnpl-kit/core/wire';
import { ensure } from '../expect.js';
import { approvedOrder } from '../support/approvals.js';
import { createOrder, expectMarketStatus } from '../support/orders.js';
import {
  credentialsFor,
  MARKET_ROUTES,
  type MarketOperation,
  routeLabel,
  routesServed,
  routeUrl,
} from '../support/routes.js';
import { BOTH_MODES, type ContractCheck } from '../types.js';

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

export const methodChecks: ContractCheck[] = [
  {
    id: 'methods.other-methods-refused',
    title:
      'Every route refuses the methods it does not serve (GET, POST, PUT, PATCH, DELETE) with a 4xx, and changes nothing',
    modes: BOTH_MODES,
    spec: 'WIRE §5',
    rules: ['R-EP-23'],
    async run(ctx) {
      // An order an action could move, in data-sharing mode; one a create could not replace, in basic.
      const [id, status] =
        ctx.mode === 'data-sharing'
          ? [await approvedOrder(ctx), 'APPROVED']
          : [(await createOrder(ctx)).id, 'PENDING'];
      const since = await ctx.sandbox.lastCallId();
      const served = routesServed(ctx.mode);
      const wrong: string[] = [];
      for (const operation of served) {
        const route = MARKET_ROUTES[operation] as MarketRouteDefinition;
        const headers = route.auth === 'webhook-signature' ? {} : await credentialsFor(ctx, route.auth);
        const url = routeUrl(ctx, operation, { id });
        for (const method of otherMethods(operation, served)) {
          const exchange = await ctx.http.send(url, {
            method,
            headers,
            ...(WITH_BODY.has(method) && { json: {} }),
          });
          if (exchange.status < 400 || exchange.status >= 500)
            wrong.push(
              `${method} on ${routeLabel(operation)} (served as ${route.method}): HTTP ${exchange.status}`,
            );
        }
      }
      const effects = (await ctx.sandbox.serviceCalls(since)).filter((call) => EFFECTS.has(call.operation));
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
];

/**
 * A path parameter reaches the service as what it is: one segment, whatever characters it holds.
 * A market that builds the service URL by pasting the ID in (`f"{base}/orders/{id}"`,
 * `base + "/orders/" + id`) lets `/`, `..`, `?` and `#` choose another resource at the service: a
 * request for one order acts on another, or on an endpoint the market never meant to call.
 *
 * Derived from the route table: every route of the mode with an `:id` parameter, with the
 * credentials its `auth` asks for, is sent IDs holding each character that means something in a
 * URL path. The service knows none of them, so the answer is the unknown order's 404 (or a 400
 * for an ID the market refuses); every service call made meanwhile must name the ID as one whole
 * segment.
 */
import { type MarketRouteDefinition, SERVICE_OPERATIONS, SERVICE_ROUTES } from '@bnpl-kit/core/wire';
import { ensure, expectStatus } from '../expect.js';
import type { ServiceCallView } from '../sandbox/driver.js';
import { OBJECT_MEMBER_NAMES } from '../support/domain-cases.js';
import { pushOwnClaims } from '../support/push-claims.js';
import {
  credentialsFor,
  MARKET_ROUTES,
  type MarketOperation,
  routeLabel,
  routesServed,
  routeUrl,
} from '../support/routes.js';
import { signedInUser } from '../support/users.js';
import { BOTH_MODES, type CheckContext, type ContractCheck, DATA_SHARING_ONLY } from '../types.js';

/** IDs holding each character with a meaning in a URL path, around a unique stem. */
export function hostileIds(stem: string): [string, string][] {
  return [
    ['a slash and a dot segment', `${stem}/../x`],
    ['a leading dot segment', `../${stem}`],
    ['a question mark', `${stem}?x=1`],
    ['a number sign', `${stem}#x`],
    ['a percent sign', `${stem}%2Fx`],
    ['a space', `${stem} x`],
    ['a semicolon', `${stem};x=1`],
  ];
}

/**
 * The calls that must name the ID: those of an operation whose service path has a parameter, and
 * any call the sandbox could not take for an operation at all (a path the ID bent out of shape).
 * A call without a parameter (the token, the signing key) is no misdirected one.
 */
const PARAMETERISED = new Set<string>(
  SERVICE_OPERATIONS.filter((op) => SERVICE_ROUTES[op].path.includes('/:')),
);
const mustNameId = (call: ServiceCallView) =>
  PARAMETERISED.has(call.operation) || !(SERVICE_OPERATIONS as readonly string[]).includes(call.operation);

/** Whether one segment of the call's path decodes to `id` exactly. */
function namesAsOneSegment(call: ServiceCallView, id: string): boolean {
  return call.path.split('/').some((segment) => {
    try {
      return decodeURIComponent(segment) === id;
    } catch {
      return false;
    }
  });
}

/** The mode's routes with an `:id` path parameter (route table). */
const routesWithId = (ctx: CheckContext) =>
  routesServed(ctx.mode).filter(
    (operation) => (MARKET_ROUTES[operation] as MarketRouteDefinition).params?.id !== undefined,
  );

/** The route's own request for order `id`, as a caller it lets in would send it. */
async function sendForId(ctx: CheckContext, operation: MarketOperation, id: string) {
  const route = MARKET_ROUTES[operation] as MarketRouteDefinition;
  return ctx.http.send(routeUrl(ctx, operation, { id }), {
    method: route.method,
    headers: await credentialsFor(ctx, route.auth),
    ...(route.method === 'POST' && { json: {} }),
  });
}

/** One route with one ID: what went wrong at the service, or undefined. */
async function tryRoute(
  ctx: CheckContext,
  operation: MarketOperation,
  what: string,
  id: string,
): Promise<string | undefined> {
  const label = `${routeLabel(operation)} with an ID holding ${what} (${JSON.stringify(id)})`;
  const since = await ctx.sandbox.lastCallId();
  const exchange = await sendForId(ctx, operation, id);
  expectStatus(exchange, [400, 404], `for ${label}, which no order has`, 'WIRE §6');
  const misdirected = (await ctx.sandbox.serviceCalls(since)).filter(
    (call) => mustNameId(call) && !namesAsOneSegment(call, id),
  );
  if (misdirected.length === 0) return undefined;
  return `${label} called the service at ${misdirected.map((c) => `${c.method} ${c.path}`).join(', ')}`;
}

export const pathParameterChecks: ContractCheck[] = [
  {
    id: 'paths.id-object-member-names',
    title:
      'An order ID that names a member every object has (constructor, __proto__, toString, __class__) is an unknown order (404) on every route with an ID',
    modes: BOTH_MODES,
    spec: 'WIRE §5',
    rules: ['R-ERR-07', 'R-EP-18'],
    async run(ctx) {
      // Orders kept in a plain object (`orders[id]`, `id in orders`) find these without any order
      // stored under them: the redirect sends the user on, an action answers for a status it invented.
      const wrong: string[] = [];
      for (const operation of routesWithId(ctx)) {
        for (const [id, why] of OBJECT_MEMBER_NAMES) {
          const exchange = await sendForId(ctx, operation, id);
          if (exchange.status !== 404 && exchange.status !== 400)
            wrong.push(
              `${routeLabel(operation)} for order ${JSON.stringify(id)} (${why}): HTTP ${exchange.status} ${exchange.text.slice(0, 160)}`,
            );
        }
      }
      ensure(wrong.length === 0, {
        expected:
          "the unknown order's 404 (or a 400 for an ID the market refuses) for each, as for any ID no order has",
        actual: wrong.join('\n    '),
        spec: 'WIRE §5',
      });
    },
  },
  {
    id: 'paths.id-one-segment',
    title:
      'An order ID holding /, .., ?, #, %, a space or ; is an unknown order (404), and reaches the service as one whole path segment',
    modes: BOTH_MODES,
    spec: 'WIRE §6',
    rules: ['R-SVC-17', 'R-ERR-07'],
    async run(ctx) {
      const wrong: string[] = [];
      for (const operation of routesWithId(ctx)) {
        for (const [what, id] of hostileIds(ctx.unique('ord'))) {
          const found = await tryRoute(ctx, operation, what, id);
          if (found !== undefined) wrong.push(found);
        }
      }
      ensure(wrong.length === 0, {
        expected: 'every service call for an order to name its ID as one percent-encoded path segment',
        actual: wrong.join('\n    '),
        spec: 'WIRE §6',
      });
    },
  },
  {
    id: 'paths.credify-id-one-segment',
    title:
      'A credify_id a user pushes claims under, holding /, .., ?, #, %, a space or ;, reaches the service as one whole path segment',
    modes: DATA_SHARING_ONLY,
    spec: 'WIRE §6',
    rules: ['R-SVC-17'],
    async run(ctx) {
      // The credify_id comes from the user's browser: the one path parameter a user writes.
      const user = await signedInUser(ctx);
      const wrong: string[] = [];
      for (const [what, credifyId] of hostileIds(ctx.unique('crf'))) {
        const since = await ctx.sandbox.lastCallId();
        const exchange = await pushOwnClaims(ctx, user, credifyId);
        const misdirected = (await ctx.sandbox.serviceCalls(since)).filter(
          (call) => mustNameId(call) && !namesAsOneSegment(call, credifyId),
        );
        if (misdirected.length > 0)
          wrong.push(
            `push-claims with a credify_id holding ${what} (${JSON.stringify(credifyId)}), answered ${exchange.status}, called the service at ${misdirected.map((c) => `${c.method} ${c.path}`).join(', ')}`,
          );
      }
      ensure(wrong.length === 0, {
        expected: 'every service call for a credify_id to name it as one percent-encoded path segment',
        actual: wrong.join('\n    '),
        spec: 'WIRE §6',
      });
    },
  },
];

/**
 * The market's endpoints as certify reaches them, from the route table (`MARKET_ROUTES` of
 * `@bnpl-kit/core/wire`), so certify keeps no endpoint list of its own: a route's URL under the
 * market's paths, the credentials its `auth` asks for, and the routes a mode serves.
 */
import type { IntegrationMode } from '@bnpl-kit/core';
import {
  MARKET_ROUTES,
  type MarketOperation,
  type MarketRouteAuth,
  type MarketRouteDefinition,
  marketOperationsFor,
  marketRoutePath,
} from '@bnpl-kit/core/wire';
import type { CheckContext } from '../types.js';
import { bearer, signedInUser } from './users.js';

export { MARKET_ROUTES, type MarketOperation };

/** The URL of `operation` at the market, `:name` parameters filled in (encoded). */
export function routeUrl(
  ctx: Pick<CheckContext, 'marketUrl' | 'paths'>,
  operation: MarketOperation,
  params: Readonly<Record<string, string>> = {},
): string {
  const path = marketRoutePath(MARKET_ROUTES[operation], ctx.paths).replace(/:(\w+)/g, (_, name: string) =>
    encodeURIComponent(params[name] ?? ''),
  );
  return `${ctx.marketUrl}${path}`;
}

/** The operations a sandbox market in `mode` serves, in table order. */
export function routesServed(mode: IntegrationMode): MarketOperation[] {
  return marketOperationsFor(mode, 'sandbox');
}

/** Operations whose route matches `filter`, in table order. */
export function routesWhere(filter: (route: MarketRouteDefinition) => boolean): MarketOperation[] {
  return (Object.keys(MARKET_ROUTES) as MarketOperation[]).filter((op) => filter(MARKET_ROUTES[op]));
}

/** A short, stable name of a route for check IDs: its last fixed path segment or its configurable key. */
export function routeSlug(operation: MarketOperation): string {
  const { path } = MARKET_ROUTES[operation] as MarketRouteDefinition;
  if (typeof path !== 'string') return path.configurable.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);
  return (
    path
      .split('/')
      .filter((s) => s !== '' && !s.startsWith(':'))
      .at(-1) ?? operation
  );
}

/** `METHOD /path` as the documents write it, for messages. */
export function routeLabel(operation: MarketOperation): string {
  const route = MARKET_ROUTES[operation] as MarketRouteDefinition;
  const path = typeof route.path === 'string' ? route.path : `<${route.path.configurable}>`;
  return `${route.method} ${path}`;
}

/** The credentials a caller of a route with this `auth` sends (the webhook's signature is made elsewhere). */
export async function credentialsFor(
  ctx: CheckContext,
  auth: MarketRouteAuth,
): Promise<Record<string, string>> {
  switch (auth) {
    case 'market-systems':
      return { ...ctx.systemAuth };
    case 'user-session':
      return bearer((await signedInUser(ctx)).sessionToken);
    case 'service-token':
      return bearer(await ctx.sandbox.offerFilterToken());
    default:
      return {};
  }
}

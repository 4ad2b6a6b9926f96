/**
 * The offer filtering endpoint (WIRE §7), called by the service: the bearer token is introspected
 * at the service (cached for its lifetime), then the user's claims, commitments included, are
 * evaluated against each offer's conditions by core's evaluator.
 */
import { filterOffers, parseFilterOffersRequest } from '../../offers/filter.js';
import type { MarketAnswer } from '../answer.js';
import { readJsonBody } from '../body.js';
import { callHook, header, json, type RouteContext, unauthenticated } from '../context.js';
import { checkClaimObject } from './claims.js';

function bearerToken(request: Request): string | undefined {
  const value = header(request, 'authorization');
  const match = value === null ? null : /^Bearer[ ]+([^\s]+)\s*$/i.exec(value);
  return match?.[1];
}

export async function filterOffersRoute(ctx: RouteContext): Promise<MarketAnswer> {
  const token = bearerToken(ctx.request);
  if (token === undefined) throw unauthenticated('A bearer token issued by the service is required');
  const introspection = await ctx.deps.introspection.check(
    token,
    ctx.request.signal,
    ctx.deps.clientKey(ctx.request),
  );
  if (!introspection)
    throw unauthenticated('The bearer token is not active or lacks the offer filtering scope');
  const body = await readJsonBody(ctx.request, ctx.deps.limits.maxBodyBytes);
  const request = parseFilterOffersRequest(body);
  const loaded = await callHook(ctx, 'fetchUserClaimObject', () =>
    ctx.deps.hooks.fetchUserClaimObject!(
      {
        localId: request.local_id ?? undefined,
        credifyId: request.credify_id ?? undefined,
        scopes: [],
        includeCommitments: true,
      },
      ctx.hookContext,
    ),
  );
  // The raw body, not the parsed one: offers are echoed back exactly as the service sent them.
  return json(
    filterOffers(
      body as Parameters<typeof filterOffers>[0],
      checkClaimObject(loaded, 'fetchUserClaimObject'),
    ),
  );
}

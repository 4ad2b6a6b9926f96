/**
 * The offer filtering endpoint (WIRE §7), called by the service: the bearer token is introspected
 * at the service (cached for its lifetime), then the user's claims, commitments included, are
 * evaluated against each offer's conditions by core's evaluator.
 */
import { filterOffers } from '../../offers/filter.js';
import type { MarketAnswer } from '../answer.js';
import { callHook, json, type RouteContext } from '../context.js';
import type { InputOf } from '../route-input.js';
import { checkClaimObject } from './claims.js';

export async function filterOffersRoute(
  { body: request, json: body }: InputOf<'filterOffers'>,
  ctx: RouteContext,
): Promise<MarketAnswer> {
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

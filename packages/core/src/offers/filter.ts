/**
 * The offer filtering endpoint's logic without its transport: the market handler parses the body
 * (to learn whose claims to load), loads the claims, then calls `filterOffers`.
 */
import type { ClaimObject } from '../claims/types.js';
import { parseWire } from '../models/wire.js';
import { evaluateParsedOffer } from './evaluate.js';
import {
  type EvaluatedOffer,
  type FilterOffersRequest,
  type FilterOffersRequestInput,
  type FilterOffersResponse,
  filterOffersRequestSchema,
} from './schemas.js';

/** Throws `KitError('validation_failed')` listing every issue, e.g. `offers[0].conditions[1].kind`. */
export function parseFilterOffersRequest(body: unknown): FilterOffersRequest {
  return parseWire(filterOffersRequestSchema, body, 'Offer filtering request');
}

/**
 * Evaluates every offer of the request and keeps those with rank > 0, each echoed as received plus
 * `evaluation_result`. Accepts the raw body or the output of `parseFilterOffersRequest`.
 */
export function filterOffers(
  request: FilterOffersRequestInput | FilterOffersRequest,
  claims: ClaimObject,
): FilterOffersResponse {
  const parsed = parseFilterOffersRequest(request);
  const received = (request as { offers?: unknown }).offers;
  const offers: EvaluatedOffer[] = [];
  parsed.offers.forEach((offer, index) => {
    const result = evaluateParsedOffer(offer, claims);
    if (result.rank === 0) return;
    // Echo what the service sent (not our normalised form), so nothing it relies on changes shape.
    const original = Array.isArray(received) ? (received[index] as Record<string, unknown>) : offer;
    offers.push({
      ...original,
      code: offer.code,
      evaluation_result: {
        rank: result.rank,
        used_scopes: result.usedScopes,
        requested_scopes: result.requestedScopes,
      },
    });
  });
  return { data: { offers } };
}

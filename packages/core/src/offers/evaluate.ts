/**
 * Ranks one offer against one user's claims (WIRE §7). Level i passes when its condition holds and
 * its required scopes are present; the rank is the number of consecutive passing levels from the
 * start, so a failing middle level caps the rank even if later levels would pass.
 */
import type { ClaimObject } from '../claims/types.js';
import { parseWire } from '../models/wire.js';
import { claimContains, claimEquals, compareNumeric } from './compare.js';
import { type Condition, type LeafCondition, subconditionsOf } from './conditions.js';
import { hasScope, lookupClaim } from './lookup.js';
import { type Offer, type OfferInput, offerSchema } from './schemas.js';

export interface OfferEvaluation {
  rank: number;
  /** Scopes the passing levels read or require, in order of first mention. */
  usedScopes: string[];
  /** Every scope the offer's conditions or required scopes mention, in order of first mention. */
  requestedScopes: string[];
}

function holdsLeaf(condition: LeafCondition, value: unknown): boolean {
  if (value === undefined) return false;
  switch (condition.kind) {
    case 'EQUALITY_CONDITION':
      return claimEquals(value, condition.value);
    case 'CONTAIN_CONDITION':
      return claimContains(value, condition.value);
    case 'LARGER_THAN_CONDITION':
      return compareNumeric(value, condition.value) === 1;
    case 'LARGER_THAN_OR_EQUAL_CONDITION':
      return (compareNumeric(value, condition.value) ?? -1) >= 0;
    case 'LESS_THAN_CONDITION':
      return compareNumeric(value, condition.value) === -1;
    case 'LESS_THAN_OR_EQUAL_CONDITION':
      return (compareNumeric(value, condition.value) ?? 1) <= 0;
    case 'IN_RANGE_CONDITION': {
      // The schema guarantees one form of each bound.
      const min = condition.min ?? condition.value!;
      const max = condition.max ?? condition.upper!;
      return (compareNumeric(value, min) ?? -1) >= 0 && (compareNumeric(value, max) ?? 1) <= 0;
    }
  }
}

/** Evaluates a parsed condition, adding the scope of every claim it reads to `reads`. */
export function evaluateCondition(condition: Condition, claims: ClaimObject, reads: Set<string>): boolean {
  if (condition.kind === 'AND_CONDITION') {
    return subconditionsOf(condition).every((sub) => evaluateCondition(sub, claims, reads));
  }
  const leaf = condition as LeafCondition;
  const found = lookupClaim(leaf, claims);
  if (found.scopeName !== undefined) reads.add(found.scopeName);
  return holdsLeaf(leaf, found.value);
}

function mentionedScopes(condition: Condition, claims: ClaimObject, into: Set<string>): void {
  if (condition.kind === 'AND_CONDITION') {
    for (const sub of subconditionsOf(condition)) mentionedScopes(sub, claims, into);
    return;
  }
  const { scopeName } = lookupClaim(condition as LeafCondition, claims);
  if (scopeName !== undefined) into.add(scopeName);
}

/** Evaluates an offer that already passed `offerSchema`. */
export function evaluateParsedOffer(offer: Offer, claims: ClaimObject): OfferEvaluation {
  const conditions = offer.conditions as (Condition | null)[];
  const required = offer.required_custom_scopes;
  // An offer without levels is one unconditional level, as in the prior art.
  const levels = Math.max(conditions.length, required.length, 1);

  const requested = new Set<string>();
  for (let i = 0; i < levels; i++) {
    const condition = conditions[i];
    if (condition) mentionedScopes(condition, claims, requested);
    for (const scope of required[i] ?? []) requested.add(scope);
  }

  const used = new Set<string>();
  let rank = 0;
  for (let i = 0; i < levels; i++) {
    const condition = conditions[i];
    const needed = required[i] ?? [];
    const reads = new Set<string>();
    const holds = condition ? evaluateCondition(condition, claims, reads) : true;
    if (!holds || !needed.every((scope) => hasScope(claims, scope))) break;
    rank++;
    for (const scope of [...reads, ...needed]) used.add(scope);
  }
  return { rank, usedScopes: [...used], requestedScopes: [...requested] };
}

/**
 * Validates and evaluates one offer. A malformed offer throws `KitError('validation_failed')` with
 * paths such as `conditions[1].kind`; it never surfaces as a crash.
 */
export function evaluateOffer(offer: OfferInput, claims: ClaimObject): OfferEvaluation {
  return evaluateParsedOffer(parseWire(offerSchema, offer, 'Offer'), claims);
}

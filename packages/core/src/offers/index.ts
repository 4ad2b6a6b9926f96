export { claimContains, claimEquals, compareNumeric, isNumeric } from './compare.js';
export {
  type AndCondition,
  type ClaimRef,
  CONDITION_KINDS,
  type Condition,
  type ConditionKind,
  claimRefSchema,
  conditionSchema,
  LEAF_CONDITION_KINDS,
  type LeafCondition,
  levelConditionSchema,
  MAX_CONDITION_DEPTH,
  ORDERING_KINDS,
  type OrderingKind,
  subconditionsOf,
} from './conditions.js';
export { evaluateCondition, evaluateOffer, evaluateParsedOffer, type OfferEvaluation } from './evaluate.js';
export { filterOffers, parseFilterOffersRequest } from './filter.js';
export { type ClaimLookup, hasScope, lookupClaim } from './lookup.js';
export * from './schemas.js';

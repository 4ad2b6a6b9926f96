/**
 * Finds the claim a condition reads. Commitment entries are never readable: a condition such as
 * CONTAIN on a commitment would turn the rank into an oracle that leaks the secret piece by piece.
 */
import { commitmentKeyFor } from '../claims/names.js';
import type { ClaimObject, ClaimValue } from '../claims/types.js';
import type { ClaimRef, LeafCondition } from './conditions.js';

// Standard claims live in a known scope, so a condition may name them without one.
const STANDARD_CLAIM_SCOPE: Readonly<Record<string, string>> = {
  phone_number: 'phone',
  given_name: 'profile',
  family_name: 'profile',
  name: 'profile',
  email: 'email',
  address: 'address',
};

export interface ClaimLookup {
  /** Undefined when no scope is named and no scope of the user holds the key. */
  scopeName: string | undefined;
  claimKey: string;
  /** Undefined when the user has no such claim. */
  value: ClaimValue | undefined;
}

function isCommitmentKey(scopeName: string, key: string): boolean {
  // Both spellings, whatever the scope: a hand-built claim object may not follow the naming rule.
  return (
    key === commitmentKeyFor(scopeName) ||
    key === `${scopeName}:commitment` ||
    key === `${scopeName}_commitment`
  );
}

function read(claims: ClaimObject, scopeName: string, claimKey: string): ClaimValue | undefined {
  if (!Object.hasOwn(claims, scopeName)) return undefined;
  const scope = claims[scopeName];
  if (scope === undefined || scope === null || typeof scope !== 'object') return undefined;
  if (isCommitmentKey(scopeName, claimKey) || !Object.hasOwn(scope, claimKey)) return undefined;
  return scope[claimKey];
}

function explicitScope(condition: LeafCondition): string | undefined {
  if (condition.scope !== undefined) return condition.scope;
  const ref: ClaimRef = condition.claim;
  if (typeof ref === 'string') return undefined;
  return typeof ref.scope === 'string' ? ref.scope : ref.scope?.name;
}

export function lookupClaim(condition: LeafCondition, claims: ClaimObject): ClaimLookup {
  const claimKey = typeof condition.claim === 'string' ? condition.claim : condition.claim.name;
  // Own keys only: an object literal also "holds" constructor, toString and __proto__, and a claim
  // by such a name would have named a function as its scope.
  const standardScope = Object.hasOwn(STANDARD_CLAIM_SCOPE, claimKey)
    ? STANDARD_CLAIM_SCOPE[claimKey]
    : undefined;
  let scopeName = explicitScope(condition) ?? standardScope;
  if (scopeName === undefined) {
    scopeName = Object.keys(claims).find((name) => read(claims, name, claimKey) !== undefined);
  }
  return {
    scopeName,
    claimKey,
    value: scopeName === undefined ? undefined : read(claims, scopeName, claimKey),
  };
}

/** A required scope counts as present when the user has it with at least one readable claim. */
export function hasScope(claims: ClaimObject, scopeName: string): boolean {
  if (!Object.hasOwn(claims, scopeName)) return false;
  const scope = claims[scopeName];
  if (scope === undefined || scope === null || typeof scope !== 'object') return false;
  return Object.keys(scope).some((key) => !isCommitmentKey(scopeName, key));
}

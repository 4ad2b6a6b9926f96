/**
 * Commitments (WIRE §7): a secret per scope per push, so a provider can check that the claims it
 * later receives are the ones the market signed. 32 bytes keeps guessing out of reach.
 */
import { base64UrlEncode } from '../util/base64url.js';
import { randomBytes } from '../util/bytes.js';
import { commitmentKeyFor } from './names.js';
import type { ClaimObject } from './types.js';

const COMMITMENT_BYTES = 32;

/** 32 random bytes as base64url: 43 characters. */
export function generateCommitment(): string {
  return base64UrlEncode(randomBytes(COMMITMENT_BYTES));
}

/**
 * The commitments carried by a claim object, keyed by scope name, which is the shape the market's
 * `upsertCommitments` hook stores and `buildClaimObject({ commitments })` takes back.
 */
export function extractCommitments(claims: ClaimObject): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [scopeName, scopeClaims] of Object.entries(claims)) {
    const commitment = scopeClaims[commitmentKeyFor(scopeName)];
    if (typeof commitment === 'string') out[scopeName] = commitment;
  }
  return out;
}

export {
  allScopesHash,
  allScopesHashInput,
  CLAIM_SCOPE_HASH_MODES,
  type ClaimScopeHash,
  priorArtJson,
} from './all-scopes-hash.js';
export { buildClaimObject } from './builder.js';
export { canonicalJson, scopeHash } from './canonical.js';
export { COMMITMENT_BYTES, extractCommitments, generateCommitment } from './commitment.js';
export {
  commitmentKeyFor,
  customClaimKey,
  customScopeName,
  isStandardScope,
  qualifyKey,
  scopeFilter,
} from './names.js';
export {
  type BuildClaimTokensInput,
  buildClaimTokens,
  type ClaimTokenEntry,
  type ClaimTokenPayload,
  claimTokenPayloadSchema,
  type SignClaimTokenInput,
  type SigningKeyInput,
  signClaimToken,
  type VerifyClaimTokenOptions,
  verifyClaimToken,
} from './token.js';
export * from './types.js';

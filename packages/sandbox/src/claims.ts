/**
 * Pushed claim tokens (`PUT /v1/claim-providers/entities/:credify_id/claims`). Each token is checked
 * as a provider would: EdDSA signature with the organisation's registered public key, `iss` = the
 * organisation, `user_id` = the path's credify ID, a scope name the organisation may use. A push is
 * all or nothing. What is stored lets a test check the market's commitments against the scope hashes.
 */

import { isKitError } from '@bnpl-kit/core';
import { ed25519PublicKey } from '@bnpl-kit/core/testing';
import {
  base64UrlEncode,
  type ClaimTokenPayload,
  isStandardScope,
  parseSigningKey,
  type ScopeClaims,
  scopeHash,
  verifyClaimToken,
} from '@bnpl-kit/core/wire';
import type { Clock } from './clock.js';
import { ServiceFailure } from './http.js';
import type { Organization } from './organizations.js';
import type { ClaimTokenRecord, SandboxState } from './state.js';

/** The key claim tokens of `organization` must verify with: registered, or derived from its signing key. */
export async function organizationPublicKey(organization: Organization): Promise<string | undefined> {
  if (organization.publicKey) return organization.publicKey;
  if (!organization.signingKey) return undefined;
  return base64UrlEncode(await ed25519PublicKey(parseSigningKey(organization.signingKey)));
}

function allowedScope(organization: Organization, scopeName: string): boolean {
  if (isStandardScope(scopeName)) return true;
  const colon = scopeName.indexOf(':');
  return colon > 0 && scopeName.slice(0, colon) === organization.id && colon < scopeName.length - 1;
}

export async function receiveClaimTokens(
  state: SandboxState,
  clock: Clock,
  organization: Organization,
  credifyId: string,
  tokens: string[],
): Promise<ClaimTokenRecord[]> {
  const user = state.users.get(credifyId);
  if (!user || user.organizationId !== organization.id) {
    throw new ServiceFailure(404, 'NOT_FOUND', `No service user ${credifyId} for this organisation`);
  }
  const publicKey = await organizationPublicKey(organization);
  if (!publicKey) {
    throw new ServiceFailure(
      409,
      'CONFLICT',
      'The organisation has no public key registered; claim tokens cannot be verified',
    );
  }
  const records: ClaimTokenRecord[] = [];
  for (const [index, token] of tokens.entries()) {
    let payload: ClaimTokenPayload;
    try {
      payload = await verifyClaimToken(token, publicKey, { organizationId: organization.id, credifyId });
    } catch (error) {
      const why = isKitError(error) ? error.message : 'not a valid claim token';
      throw new ServiceFailure(400, 'INVALID_CLAIM_TOKEN', `claim_tokens[${index}]: ${why}`);
    }
    if (!allowedScope(organization, payload.scope_name)) {
      throw new ServiceFailure(
        400,
        'INVALID_CLAIM_TOKEN',
        `claim_tokens[${index}]: scope ${payload.scope_name} is neither a standard scope nor ${organization.id}:<scope_key>`,
      );
    }
    records.push({
      credifyId,
      organizationId: organization.id,
      scopeName: payload.scope_name,
      scopeHash: payload.scope_hash,
      iat: payload.iat,
      token,
      receivedAt: clock.now(),
    });
  }
  const byScope = state.claims.get(credifyId) ?? new Map<string, ClaimTokenRecord>();
  for (const record of records) byScope.set(record.scopeName, record);
  state.claims.set(credifyId, byScope);
  return records;
}

/**
 * Whether `scopeClaims` (one scope's claim map, commitment entry included, as a provider receives
 * it from the market) hashes to the scope hash of the token the market pushed for that scope.
 */
export async function claimsMatchPushedToken(
  state: SandboxState,
  credifyId: string,
  scopeName: string,
  scopeClaims: ScopeClaims,
): Promise<boolean> {
  const record = state.claims.get(credifyId)?.get(scopeName);
  return record !== undefined && record.scopeHash === (await scopeHash(scopeClaims));
}

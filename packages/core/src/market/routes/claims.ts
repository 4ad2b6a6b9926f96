/**
 * `POST /push-claims` (data-sharing): the frontend hands over the service user ID it got from the
 * SDK; the market builds the user's claims with a fresh commitment per scope, signs one claim token
 * per scope, pushes the tokens, and only once the service accepted them stores the service user ID
 * and keeps the commitments.
 */
import { generateCommitment } from '../../claims/commitment.js';
import { commitmentKeyFor } from '../../claims/names.js';
import { buildClaimTokens } from '../../claims/token.js';
import { type ClaimObject, claimObjectSchema } from '../../claims/types.js';
import { KitError } from '../../errors.js';
import { isSecret } from '../../models/secret.js';
import { identifierText } from '../../models/text.js';
import { field, wireObject } from '../../models/wire.js';
import type { MarketAnswer } from '../answer.js';
import { callHook, HookFailure, json, type RouteContext } from '../context.js';
import { oneActionAtATime } from '../order-claims.js';
import type { InputOf } from '../route-input.js';

// Both IDs are stored, and credify_id goes into the service's URL and an Idempotency-Key.
const userId = identifierText();

export const pushClaimsRequestCodec = wireObject({
  id: field('id', userId),
  credifyId: field('credify_id', userId),
});

/** A hook's claim object is market code: check it before signing anything over it. */
export function checkClaimObject(value: unknown, hook: string): ClaimObject {
  const result = claimObjectSchema.safeParse(value);
  if (result.success) return result.data as ClaimObject;
  throw new HookFailure(hook, result.error, `Hook ${hook} returned something that is not a claim object`);
}

export async function pushClaims(
  { principal, body: { id: localId, credifyId } }: InputOf<'pushClaims'>,
  ctx: RouteContext,
): Promise<MarketAnswer> {
  if (principal.id !== localId) {
    throw new KitError('forbidden', 'Claims can only be pushed for the signed-in user’s own ID');
  }
  // One push per user at a time (order-claims.ts): two pushes at once would otherwise reach the
  // service in one order and store their commitments in the other, and the provider's check of the
  // user's claims against the token it holds would fail (R-CLAIM-04).
  return oneActionAtATime(ctx.deps.store, `user:${localId}`, () => pushFor(localId, credifyId, ctx));
}

async function pushFor(localId: string, credifyId: string, ctx: RouteContext): Promise<MarketAnswer> {
  const { hooks, config, service } = ctx.deps;
  const hc = ctx.hookContext;
  const loaded = await callHook(ctx, 'fetchUserClaimObject', () =>
    hooks.fetchUserClaimObject!({ localId, credifyId, scopes: [], includeCommitments: false }, hc),
  );
  const claims: ClaimObject = {};
  const commitments: Record<string, string> = {};
  for (const [scopeName, scopeClaims] of Object.entries(checkClaimObject(loaded, 'fetchUserClaimObject'))) {
    const commitment = generateCommitment();
    claims[scopeName] = { ...scopeClaims, [commitmentKeyFor(scopeName)]: commitment };
    commitments[scopeName] = commitment;
  }
  const signingKey = config.appSigningKey!;
  const tokens = await buildClaimTokens({
    claims,
    organizationId: config.appId!,
    credifyId,
    signingKey: isSecret(signingKey) ? signingKey.reveal() : signingKey,
    iat: Math.floor(ctx.deps.now() / 1000),
    scopeHashMode: config.claimScopeHash ?? 'per-scope',
  });
  await service.pushClaimTokens(
    credifyId,
    tokens.map((t) => t.token),
  );
  // Stored only once the service accepted the tokens: a credify_id the service does not know
  // (user_not_found) must never become the user's.
  await callHook(ctx, 'updateUserId', () => hooks.updateUserId!({ localId, credifyId }, hc));
  await callHook(ctx, 'upsertCommitments', () =>
    hooks.upsertCommitments!({ localId, credifyId, commitments }, hc),
  );
  return json({ credify_id: credifyId });
}

/** `POST /push-claims` (WIRE §5, data-sharing mode), as a signed-in user's browser sends it. */
import type { ClaimObject } from '@bnpl-kit/core';
import { expectStatus } from '../expect.js';
import type { HttpExchange } from '../http.js';
import type { CheckContext, TestUser } from '../types.js';
import { routeUrl } from './routes.js';
import { bearer, type SignedInUser, signedInAtService } from './users.js';

export function pushClaims(
  ctx: CheckContext,
  headers: Record<string, string>,
  body: unknown,
): Promise<HttpExchange> {
  return ctx.http.send(routeUrl(ctx, 'pushClaims'), { method: 'POST', json: body, headers });
}

/** The user pushes their own claims, the way the SDK's pushClaimTokensTask does. */
export function pushOwnClaims(
  ctx: CheckContext,
  user: SignedInUser,
  credifyId: string,
): Promise<HttpExchange> {
  return pushClaims(ctx, bearer(user.sessionToken), { id: user.id, credify_id: credifyId });
}

/**
 * The claims the market keeps for `user`: from its store where certify can read it (the
 * storedClaims option), else as its demo-user listing shows them now.
 */
export async function keptClaims(ctx: CheckContext, user: TestUser): Promise<ClaimObject | undefined> {
  return (await ctx.storedClaims(user)) ?? (await ctx.users()).find((u) => u.id === user.id)?.claims;
}

/** A user signed in at the service who has pushed their own claims (a 200), and what the market keeps. */
export async function userWithPushedClaims(
  ctx: CheckContext,
): Promise<{ user: SignedInUser; credifyId: string; claims: ClaimObject | undefined }> {
  const { user, credifyId } = await signedInAtService(ctx);
  expectStatus(await pushOwnClaims(ctx, user, credifyId), 200, "for pushing the signed-in user's own claims");
  return { user, credifyId, claims: await keptClaims(ctx, user) };
}

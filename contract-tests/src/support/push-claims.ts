/** `POST /push-claims` (WIRE §5, data-sharing mode), as a signed-in user's browser sends it. */
import type { HttpExchange } from '../http.js';
import type { CheckContext } from '../types.js';
import { routeUrl } from './routes.js';
import { bearer, type SignedInUser } from './users.js';

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

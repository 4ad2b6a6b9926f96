/**
 * How the suite meets the market's end users. A market under certification runs in sandbox mode,
 * where `GET /v1/demo-user` answers its demo user(s). The suite reads, from that answer:
 *
 *   { "id": "u1", "session_token": "…", "claims": { … }, "users": [ { "id", "session_token", "claims" } ] }
 *
 * - `id` (required): the market's internal user ID.
 * - `session_token` (optional): accepted by `authenticateInternalUser` as `Authorization: Bearer …`;
 *   without one, checks that act as a signed-in user are skipped.
 * - `claims` (optional): the user's claim object as the market stores it; with commitment entries
 *   it lets the suite recompute each pushed scope hash (sandbox demo users only, never real users).
 * - `users` (optional): further demo users, same shape. The top-level object counts as a user when
 *   it has an `id`.
 */
import type { ClaimObject } from '@bnpl-kit/core';
import { commitmentKeyFor } from '@bnpl-kit/core/wire';
import { isObject } from '../expect.js';
import type { CheckContext, TestUser } from '../types.js';

function userOf(value: unknown): TestUser | undefined {
  if (!isObject(value) || typeof value.id !== 'string' || value.id === '') return undefined;
  return {
    id: value.id,
    sessionToken:
      typeof value.session_token === 'string' && value.session_token !== '' ? value.session_token : undefined,
    claims: isObject(value.claims) ? (value.claims as ClaimObject) : undefined,
  };
}

/** The users a demo-user answer describes, without duplicates, in order. */
export function parseDemoUsers(body: unknown): TestUser[] {
  if (!isObject(body)) return [];
  const candidates = [body, ...(Array.isArray(body.users) ? body.users : [])];
  const users: TestUser[] = [];
  for (const candidate of candidates) {
    const user = userOf(candidate);
    if (user && !users.some((u) => u.id === user.id)) users.push(user);
  }
  return users;
}

/** Whether a claim object carries a commitment for every scope (so scope hashes can be recomputed). */
export function hasCommitments(claims: ClaimObject | undefined): claims is ClaimObject {
  if (!claims || Object.keys(claims).length === 0) return false;
  return Object.entries(claims).every(
    ([scope, values]) => typeof values[commitmentKeyFor(scope)] === 'string',
  );
}

export type SignedInUser = TestUser & { sessionToken: string };

/** Users who can sign in, i.e. have a session token. */
export function signedInUsers(users: readonly TestUser[]): SignedInUser[] {
  return users.filter((u): u is SignedInUser => typeof u.sessionToken === 'string');
}

/** The market's users who can sign in; the check is skipped when there are fewer than `count`. */
export async function signedIn(ctx: CheckContext, count = 1): Promise<SignedInUser[]> {
  const users = signedInUsers(await ctx.users());
  if (users.length < count) {
    return ctx.skip(
      `needs ${count} user(s) with a session_token; GET ${ctx.paths.prefix}/demo-user gave ${users.length} (see "demo-user contract" in the README)`,
    );
  }
  return users;
}

/** The first user who can sign in (else the check is skipped). */
export async function signedInUser(ctx: CheckContext): Promise<SignedInUser> {
  return (await signedIn(ctx))[0]!;
}

/** The first user who can sign in, and their service user ID (an availability check creates it if needed). */
export async function signedInAtService(
  ctx: CheckContext,
): Promise<{ user: SignedInUser; credifyId: string }> {
  const user = await signedInUser(ctx);
  return { user, credifyId: await ctx.sandbox.serviceUserId(user.id) };
}

export function bearer(token: string): Record<string, string> {
  return { authorization: `Bearer ${token}` };
}

/**
 * `GET /v1/demo-user` in sandbox mode, answered from the store so it is always current: every demo
 * user with a session token to sign in with and, in data-sharing mode, the claims as stored
 * (commitments of the last push included). That is the contract suite's "demo-user contract":
 * `{ id, session_token, claims, users: [...] }`. It is one of the server's own routes, mounted
 * before the kit's router, so the kit's static demo user stays unused.
 */
import type { Store, UserRecord } from '@bnpl-kit/store';
import { DEMO_USERS } from './demo-data.js';
import { claimsOfUser, type HookDeps } from './hooks.js';

export interface DemoUserDeps extends Pick<HookDeps, 'store' | 'appId' | 'providingBasicProfile'> {
  store: Store;
  demoSessions: Record<string, string>;
  dataSharing: boolean;
}

function displayName(user: UserRecord): string | null {
  const name = user.profile.name;
  if (!name) return null;
  return name.full ?? [name.family, name.given].filter(Boolean).join(' ');
}

export async function demoUsersBody(deps: DemoUserDeps): Promise<Record<string, unknown>> {
  const views: Record<string, unknown>[] = [];
  for (const demo of DEMO_USERS) {
    const user = await deps.store.findUserById(demo.id);
    if (!user) continue;
    views.push({
      id: user.id,
      session_token: deps.demoSessions[user.id] ?? null,
      name: displayName(user),
      email: user.profile.email ?? null,
      phone: typeof user.profile.phone === 'string' ? user.profile.phone : null,
      credify_id: user.credifyId ?? null,
      custom_claims: user.customClaims,
      ...(deps.dataSharing && { claims: await claimsOfUser(deps, user, { includeCommitments: true }) }),
    });
  }
  return { ...views[0], users: views };
}

export const DEMO_USER_PATH = '/v1/demo-user';

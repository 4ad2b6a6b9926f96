/**
 * `storeUsers`: the four user hooks of a market (`authenticateInternalUser`, and the data-sharing
 * `fetchUserClaimObject`, `updateUserId`, `upsertCommitments`) on the store's own user table, and
 * the sandbox demo users `GET /v1/demo-user` shows as stored now. For a market whose BNPL-facing
 * user data lives in the store (the reference servers, the adapter READMEs); a market with its own
 * user tables writes the same four hooks against them.
 */
import { randomBytes } from 'node:crypto';
import {
  type BasicProfileKey,
  bearerToken,
  buildClaimObject,
  type ClaimObject,
  type IntegrationMode,
  KitError,
  type MarketHooks,
} from '@bnpl-kit/core';
import type { NewUser, UserRecord } from './records.js';
import type { Store, StoreTransaction } from './store.js';

export interface StoreUsersConfig {
  /** `APP_ID`: custom scope names and claim keys are qualified with it. */
  appId?: string | undefined;
  integrationMode: IntegrationMode;
  /** `APP_PROVIDING_BASIC_PROFILE`: the standard scopes the market shares. */
  providingBasicProfile?: readonly BasicProfileKey[] | undefined;
}

export type StoreUserHooks = Required<
  Pick<
    MarketHooks<StoreTransaction>,
    'authenticateInternalUser' | 'fetchUserClaimObject' | 'updateUserId' | 'upsertCommitments'
  >
>;

export interface StoreUsers {
  /** Spread into `createMarket`'s hooks. Users sign in with `Authorization: Bearer <session token>`. */
  hooks: StoreUserHooks;
  /** The user's claim object (`buildClaimObject`), with the last push's commitments when asked. */
  claimsOf(
    user: UserRecord,
    options?: { scopes?: readonly string[]; includeCommitments?: boolean },
  ): Promise<ClaimObject>;
  /**
   * Sandbox only: creates the user unless it exists, gives it a fresh session token and lists it
   * in `demoUser`. Returns the session token.
   */
  addDemoUser(user: NewUser & { id: string }): Promise<string>;
  /** `createMarket({ demoUser })`: every demo user as stored now (the first one at the top level). */
  demoUser(): Promise<Record<string, unknown>>;
}

export function storeUsers(store: Store, config: StoreUsersConfig): StoreUsers {
  const dataSharing = config.integrationMode === 'data-sharing';
  /** Demo user ID → session token, in this process only (the store keeps only its hash). */
  const demoSessions = new Map<string, string>();

  async function findUser(localId: string | undefined, credifyId: string | undefined): Promise<UserRecord> {
    const user =
      (localId !== undefined ? await store.findUserById(localId) : undefined) ??
      (credifyId !== undefined ? await store.findUserByCredifyId(credifyId) : undefined);
    if (!user) throw new KitError('user_not_found', 'No such user in this market');
    return user;
  }

  async function claimsOf(
    user: UserRecord,
    options: { scopes?: readonly string[]; includeCommitments?: boolean } = {},
  ): Promise<ClaimObject> {
    if (config.appId === undefined) {
      throw new KitError('misconfigured', 'Claims need APP_ID: custom scopes are named after it');
    }
    return buildClaimObject({
      organizationId: config.appId,
      profile: user.profile,
      providingBasicProfile: [...(config.providingBasicProfile ?? [])],
      customScopes: user.customClaims,
      ...(options.scopes && { scopes: [...options.scopes] }),
      ...(options.includeCommitments && { commitments: await store.listCommitments(user.id) }),
    });
  }

  const hooks: StoreUserHooks = {
    async authenticateInternalUser(request) {
      const token = bearerToken(request);
      const user = token === undefined ? undefined : await store.findUserBySessionToken(token);
      return user ? { id: user.id } : null;
    },
    async fetchUserClaimObject({ localId, credifyId, scopes, includeCommitments }) {
      return claimsOf(await findUser(localId, credifyId), { scopes, includeCommitments });
    },
    async updateUserId({ localId, credifyId }) {
      const user = await findUser(localId, undefined);
      if (user.credifyId !== credifyId) await store.setUserCredifyId(localId, credifyId);
    },
    async upsertCommitments({ localId, commitments }) {
      await store.upsertCommitments(localId, commitments);
    },
  };

  return {
    hooks,
    claimsOf,
    async addDemoUser(user) {
      await store.ensureUser(user);
      const token = randomBytes(24).toString('base64url');
      await store.setUserSessionToken(user.id, token);
      demoSessions.set(user.id, token);
      return token;
    },
    async demoUser() {
      const users: Record<string, unknown>[] = [];
      for (const [id, sessionToken] of demoSessions) {
        const user = await store.findUserById(id);
        if (!user) continue;
        users.push({
          id: user.id,
          session_token: sessionToken,
          credify_id: user.credifyId ?? null,
          ...(dataSharing && { claims: await claimsOf(user, { includeCommitments: true }) }),
        });
      }
      return { ...users[0], users };
    },
  };
}

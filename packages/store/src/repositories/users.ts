/** Users and their commitments, for the reference servers' auth and data-sharing hooks. */
import { createHash } from 'node:crypto';
import { KitError } from '@bnpl-kit/core';
import type { Queryable } from '../executor/types.js';
import type { NewUser, UserRecord, UserUpdate } from '../records.js';
import { FOREIGN_KEY_VIOLATION, sqlState, UNIQUE_VIOLATION, violatedConstraint } from './pg-errors.js';

interface UserRow {
  id: string;
  credify_id: string | null;
  profile: UserRecord['profile'];
  custom_claims: UserRecord['customClaims'];
  created_at: Date;
  updated_at: Date;
}

const USER_COLUMNS = 'id, credify_id, profile, custom_claims, created_at, updated_at';

function toUser(row: UserRow): UserRecord {
  return {
    id: row.id,
    credifyId: row.credify_id ?? undefined,
    profile: row.profile,
    customClaims: row.custom_claims,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

/**
 * Session tokens are long random strings, so one SHA-256 is enough (a slow password hash guards
 * guessable secrets, which these are not).
 */
export function hashSessionToken(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}

export interface UserOps {
  /** Throws `conflict` when the ID, service user ID or session token is already taken. */
  createUser(user: NewUser): Promise<UserRecord>;
  /** Creates the user unless one with `user.id` exists (then returns it unchanged): for seeding. */
  ensureUser(user: NewUser & { id: string }): Promise<{ user: UserRecord; created: boolean }>;
  findUserById(id: string): Promise<UserRecord | undefined>;
  findUserByCredifyId(credifyId: string): Promise<UserRecord | undefined>;
  findUserBySessionToken(token: string): Promise<UserRecord | undefined>;
  /** The `updateUserId` hook. `user_not_found`; `conflict` if another user holds the ID. */
  setUserCredifyId(userId: string, credifyId: string): Promise<UserRecord>;
  /** Replaces the given fields. `user_not_found` when there is no such user. */
  updateUser(userId: string, update: UserUpdate): Promise<UserRecord>;
  /** Sets (or with `null` clears) the user's session token. */
  setUserSessionToken(userId: string, token: string | null): Promise<void>;
  /** The `upsertCommitments` hook: scope name → commitment, replacing earlier ones per scope. */
  upsertCommitments(userId: string, commitments: Readonly<Record<string, string>>): Promise<void>;
  /** Scope name → commitment. */
  listCommitments(userId: string): Promise<Record<string, string>>;
}

function conflictFrom(err: unknown): never {
  if (sqlState(err) === UNIQUE_VIOLATION) {
    const constraint = violatedConstraint(err) ?? '';
    const what = constraint.includes('credify')
      ? 'service user ID (credify_id) is already linked to another user'
      : constraint.includes('session')
        ? 'session token is already in use'
        : 'user already exists';
    throw new KitError('conflict', `The ${what}`, { cause: err });
  }
  throw err;
}

export function userOps(q: Queryable): UserOps {
  async function findBy(column: string, value: string): Promise<UserRecord | undefined> {
    const { rows } = await q.query<UserRow>(`SELECT ${USER_COLUMNS} FROM bnpl_users WHERE ${column} = $1`, [
      value,
    ]);
    return rows[0] === undefined ? undefined : toUser(rows[0]);
  }
  function insertParams(user: NewUser): unknown[] {
    return [
      user.id ?? null,
      user.credifyId ?? null,
      JSON.stringify(user.profile ?? {}),
      JSON.stringify(user.customClaims ?? {}),
      user.sessionToken === undefined ? null : hashSessionToken(user.sessionToken),
    ];
  }
  async function updateReturning(userId: string, set: string, params: unknown[]): Promise<UserRecord> {
    const { rows } = await q
      .query<UserRow>(
        `UPDATE bnpl_users SET ${set}, updated_at = now() WHERE id = $1 RETURNING ${USER_COLUMNS}`,
        [userId, ...params],
      )
      .catch(conflictFrom);
    if (rows[0] === undefined) throw new KitError('user_not_found', `User ${userId} does not exist`);
    return toUser(rows[0]);
  }

  return {
    async createUser(user) {
      const { rows } = await q
        .query<UserRow>(
          `INSERT INTO bnpl_users (id, credify_id, profile, custom_claims, session_token_hash)
           VALUES (coalesce($1, gen_random_uuid()::text), $2, $3::jsonb, $4::jsonb, $5)
           RETURNING ${USER_COLUMNS}`,
          insertParams(user),
        )
        .catch(conflictFrom);
      return toUser(rows[0]!);
    },

    async ensureUser(user) {
      const { rows } = await q
        .query<UserRow>(
          `INSERT INTO bnpl_users (id, credify_id, profile, custom_claims, session_token_hash)
           VALUES ($1, $2, $3::jsonb, $4::jsonb, $5)
           ON CONFLICT (id) DO NOTHING
           RETURNING ${USER_COLUMNS}`,
          insertParams(user),
        )
        .catch(conflictFrom);
      if (rows[0] !== undefined) return { user: toUser(rows[0]), created: true };
      const existing = await findBy('id', user.id);
      if (existing === undefined)
        throw new KitError('internal', `User ${user.id} conflicted but is not visible`);
      return { user: existing, created: false };
    },

    findUserById: (id) => findBy('id', id),
    findUserByCredifyId: (credifyId) => findBy('credify_id', credifyId),
    findUserBySessionToken: (token) => findBy('session_token_hash', hashSessionToken(token)),

    setUserCredifyId: (userId, credifyId) => updateReturning(userId, 'credify_id = $2', [credifyId]),

    updateUser(userId, update) {
      // coalesce keeps a field the caller did not pass.
      return updateReturning(
        userId,
        'profile = coalesce($2::jsonb, profile), custom_claims = coalesce($3::jsonb, custom_claims)',
        [
          update.profile === undefined ? null : JSON.stringify(update.profile),
          update.customClaims === undefined ? null : JSON.stringify(update.customClaims),
        ],
      );
    },

    async setUserSessionToken(userId, token) {
      await updateReturning(userId, 'session_token_hash = $2', [
        token === null ? null : hashSessionToken(token),
      ]);
    },

    async upsertCommitments(userId, commitments) {
      if (Object.keys(commitments).length === 0) return;
      try {
        await q.query(
          `INSERT INTO bnpl_commitments (user_id, scope_name, commitment)
           SELECT $1, key, value FROM jsonb_each_text($2::jsonb)
           ON CONFLICT (user_id, scope_name)
           DO UPDATE SET commitment = excluded.commitment, updated_at = now()`,
          [userId, JSON.stringify(commitments)],
        );
      } catch (err) {
        if (sqlState(err) === FOREIGN_KEY_VIOLATION) {
          throw new KitError('user_not_found', `User ${userId} does not exist`, { cause: err });
        }
        throw err;
      }
    },

    async listCommitments(userId) {
      const { rows } = await q.query<{ scope_name: string; commitment: string }>(
        'SELECT scope_name, commitment FROM bnpl_commitments WHERE user_id = $1 ORDER BY scope_name',
        [userId],
      );
      return Object.fromEntries(rows.map((r) => [r.scope_name, r.commitment]));
    },
  };
}

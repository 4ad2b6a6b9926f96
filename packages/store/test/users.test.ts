import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Store } from '../src/index.js';
import { hashSessionToken } from '../src/repositories/users.js';
import { backends, type TestDatabase, unique } from './helpers/backends.js';

const profile = {
  name: { given: 'An', family: 'Nguyễn' },
  phone: '+84901234567',
  email: 'an@example.com',
  address: { formatted: '1 Lê Lợi, Quận 1, TP.HCM' },
};

describe.each(backends)('users and commitments on $name', (backend) => {
  let db: TestDatabase;
  let store: Store;
  beforeAll(async () => {
    db = await backend.open();
    store = db.store;
  });
  afterAll(() => db.close());

  it('creates a user and finds it by internal ID, session token and service user ID', async () => {
    const token = unique('session');
    const credifyId = unique('credify');
    const user = await store.createUser({
      profile,
      customClaims: { loyalty: { tier: 'gold', points: '1200' } },
      sessionToken: token,
      credifyId,
    });
    expect(user).toEqual({
      id: expect.any(String),
      credifyId,
      profile,
      customClaims: { loyalty: { tier: 'gold', points: '1200' } },
      createdAt: expect.any(Date),
      updatedAt: expect.any(Date),
    });
    expect(await store.findUserById(user.id)).toEqual(user);
    expect(await store.findUserBySessionToken(token)).toEqual(user);
    expect(await store.findUserByCredifyId(credifyId)).toEqual(user);
    expect(await store.findUserBySessionToken(`${token}x`)).toBeUndefined();
    expect(await store.findUserById('nobody')).toBeUndefined();

    // Only the hash is stored.
    const { rows } = await store.query<{ session_token_hash: string }>(
      'SELECT session_token_hash FROM bnpl_users WHERE id = $1',
      [user.id],
    );
    expect(rows[0]?.session_token_hash).toBe(hashSessionToken(token));
    expect(rows[0]?.session_token_hash).not.toContain(token);
  });

  it('links a service user ID to one user only', async () => {
    const a = await store.createUser({ id: unique('user') });
    const b = await store.createUser({ id: unique('user') });
    expect(a.credifyId).toBeUndefined();
    const credifyId = unique('credify');
    expect((await store.setUserCredifyId(a.id, credifyId)).credifyId).toBe(credifyId);
    expect((await store.setUserCredifyId(a.id, credifyId)).credifyId).toBe(credifyId);
    await expect(store.setUserCredifyId(b.id, credifyId)).rejects.toMatchObject({
      code: 'conflict',
      message: expect.stringContaining('credify_id'),
    });
    await expect(store.setUserCredifyId('nobody', unique('credify'))).rejects.toMatchObject({
      code: 'user_not_found',
    });
    await expect(store.createUser({ id: a.id })).rejects.toMatchObject({ code: 'conflict' });
  });

  it('replaces only the fields an update names', async () => {
    const user = await store.createUser({ profile, customClaims: { loyalty: { tier: 'silver' } } });
    const renamed = await store.updateUser(user.id, { profile: { name: { full: 'Trần Bình' } } });
    expect(renamed.profile).toEqual({ name: { full: 'Trần Bình' } });
    expect(renamed.customClaims).toEqual({ loyalty: { tier: 'silver' } });
    const claims = await store.updateUser(user.id, { customClaims: {} });
    expect(claims.profile).toEqual({ name: { full: 'Trần Bình' } });
    expect(claims.customClaims).toEqual({});
    await expect(store.updateUser('nobody', {})).rejects.toMatchObject({ code: 'user_not_found' });
  });

  it('sets, replaces and clears a session token', async () => {
    const user = await store.createUser({});
    const first = unique('session');
    const second = unique('session');
    await store.setUserSessionToken(user.id, first);
    expect((await store.findUserBySessionToken(first))?.id).toBe(user.id);
    await store.setUserSessionToken(user.id, second);
    expect(await store.findUserBySessionToken(first)).toBeUndefined();
    expect((await store.findUserBySessionToken(second))?.id).toBe(user.id);
    await store.setUserSessionToken(user.id, null);
    expect(await store.findUserBySessionToken(second)).toBeUndefined();
  });

  it('seeds a user once with ensureUser', async () => {
    const id = unique('demo');
    const first = await store.ensureUser({ id, profile });
    expect(first.created).toBe(true);
    const second = await store.ensureUser({ id, profile: { email: 'other@example.com' } });
    expect(second).toEqual({ user: first.user, created: false });
  });

  it('upserts commitments per user and scope', async () => {
    const user = await store.createUser({});
    const other = await store.createUser({});
    expect(await store.listCommitments(user.id)).toEqual({});
    await store.upsertCommitments(user.id, { phone: 'c-phone-1', 'org:loyalty': 'c-loyalty-1' });
    await store.upsertCommitments(other.id, { phone: 'c-other' });
    await store.upsertCommitments(user.id, { phone: 'c-phone-2', email: 'c-email-1' });
    await store.upsertCommitments(user.id, {});
    expect(await store.listCommitments(user.id)).toEqual({
      email: 'c-email-1',
      'org:loyalty': 'c-loyalty-1',
      phone: 'c-phone-2',
    });
    expect(await store.listCommitments(other.id)).toEqual({ phone: 'c-other' });
    await expect(store.upsertCommitments('nobody', { phone: 'c' })).rejects.toMatchObject({
      code: 'user_not_found',
    });
  });

  it('writes users and commitments inside a transaction', async () => {
    const id = unique('user');
    await expect(
      store.transaction(async (tx) => {
        await tx.createUser({ id });
        await tx.upsertCommitments(id, { phone: 'c' });
        throw new Error('abort');
      }),
    ).rejects.toThrow('abort');
    expect(await store.findUserById(id)).toBeUndefined();
    await store.transaction(async (tx) => {
      await tx.createUser({ id });
      await tx.upsertCommitments(id, { phone: 'c' });
    });
    expect(await store.listCommitments(id)).toEqual({ phone: 'c' });
  });
});

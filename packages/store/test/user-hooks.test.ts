/**
 * `storeUsers`: the user hooks on the store's user table and the demo users as stored now (what the
 * adapter READMEs run, and certify drives in data-sharing mode).
 */
import type { HookContext } from '@bnpl-kit/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Store, storeUsers } from '../src/index.js';
import { backends, type TestDatabase, unique } from './helpers/backends.js';

const ctx = {} as HookContext;
const profile = { phone: '+84901234567', name: { given: 'An', family: 'Nguyễn' }, email: 'an@example.com' };

describe.each(backends)('storeUsers on $name', (backend) => {
  let db: TestDatabase;
  let store: Store;
  beforeAll(async () => {
    db = await backend.open();
    store = db.store;
  });
  afterAll(() => db.close());

  const config = {
    appId: 'org-1',
    integrationMode: 'data-sharing' as const,
    providingBasicProfile: ['phone', 'email'] as const,
  };

  it('signs a demo user in, finds it by session, and shows its claims with the last commitments', async () => {
    const users = storeUsers(store, config);
    const id = unique('demo');
    const token = await users.addDemoUser({
      id,
      profile,
      customClaims: { loyalty: { tier: 'gold', points: 1200 } },
    });
    const request = new Request('http://m/', { headers: { authorization: `Bearer ${token}` } });
    expect(await users.hooks.authenticateInternalUser(request, ctx)).toEqual({ id });
    const stranger = new Request('http://m/', { headers: { authorization: 'Bearer nobody' } });
    expect(await users.hooks.authenticateInternalUser(stranger, ctx)).toBeNull();

    await users.hooks.updateUserId({ localId: id, credifyId: `${id}-credify` }, ctx);
    await users.hooks.upsertCommitments(
      {
        localId: id,
        credifyId: `${id}-credify`,
        commitments: { 'org-1:loyalty': 'c-loyalty', email: 'c-email' },
      },
      ctx,
    );
    const byCredifyId = await users.hooks.fetchUserClaimObject(
      { localId: undefined, credifyId: `${id}-credify`, scopes: ['org-1:loyalty'], includeCommitments: true },
      ctx,
    );
    expect(byCredifyId).toEqual({
      'org-1:loyalty': {
        'org-1:tier': 'gold',
        'org-1:points': 1200,
        'org-1:loyalty:commitment': 'c-loyalty',
      },
    });

    const shown = await users.demoUser();
    expect(shown).toMatchObject({ id, session_token: token, credify_id: `${id}-credify` });
    expect((shown.claims as Record<string, unknown>).email).toEqual({
      email: 'an@example.com',
      email_commitment: 'c-email',
    });
    expect(shown.users).toEqual([expect.objectContaining({ id, session_token: token })]);
  });

  it('answers an unknown user with user_not_found', async () => {
    const users = storeUsers(store, config);
    await expect(
      users.hooks.fetchUserClaimObject(
        { localId: unique('nobody'), credifyId: undefined, scopes: [], includeCommitments: false },
        ctx,
      ),
    ).rejects.toMatchObject({ code: 'user_not_found' });
  });

  it('shows no claims in basic mode', async () => {
    const users = storeUsers(store, { integrationMode: 'basic' });
    const id = unique('demo');
    await users.addDemoUser({ id, profile });
    const shown = await users.demoUser();
    expect(shown.id).toBe(id);
    expect(shown).not.toHaveProperty('claims');
  });
});

import { decodeJwt } from 'jose';
import { describe, expect, it, vi } from 'vitest';
import { allScopesHash } from '../src/claims/all-scopes-hash.js';
import { scopeHash } from '../src/claims/canonical.js';
import { verifyClaimToken } from '../src/claims/token.js';
import { READ_FILTERED_OFFERS_SCOPE as OFFER_FILTER_SCOPE } from '../src/service/routes.js';
import { call, makeMarket, type TestMarket, USER_TOKEN } from './market-support.js';

const push = (body: unknown, token: string | undefined = USER_TOKEN) => ({
  method: 'POST',
  token,
  body: JSON.stringify(body),
});

describe('POST /v1/push-claims', () => {
  it('signs one token per scope over claims with fresh commitments, pushes, then stores the ID and keeps the commitments', async () => {
    const order: string[] = [];
    const upserted: Record<string, string>[] = [];
    const t = await makeMarket({
      hooks: {
        async updateUserId(input) {
          order.push(`updateUserId:${input.localId}:${input.credifyId}`);
        },
        async upsertCommitments(input) {
          order.push('upsertCommitments');
          upserted.push(input.commitments);
        },
      },
    });
    const fetchSpy = vi.spyOn(t.hooks, 'fetchUserClaimObject');
    const pushTokens = t.service.pushClaimTokens.bind(t.service);
    t.service.pushClaimTokens = async (...args) => {
      order.push('pushClaimTokens');
      return pushTokens(...args);
    };
    const response = await call(t.market, '/v1/push-claims', push({ id: 'u1', credify_id: 'cred-1' }));
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ credify_id: 'cred-1' });
    expect(order).toEqual(['pushClaimTokens', 'updateUserId:u1:cred-1', 'upsertCommitments']);
    expect(fetchSpy.mock.calls[0]![0]).toEqual({
      localId: 'u1',
      credifyId: 'cred-1',
      scopes: [],
      includeCommitments: false,
    });

    const [pushCall] = t.service.callsOf('pushClaimTokens');
    const [credifyId, tokens] = pushCall!.args as [string, string[]];
    expect(credifyId).toBe('cred-1');
    expect(tokens).toHaveLength(2);
    const commitments = upserted[0]!;
    expect(Object.keys(commitments).sort()).toEqual(['org-1:loyalty', 'phone']);
    for (const commitment of Object.values(commitments)) expect(commitment).toMatch(/^[A-Za-z0-9_-]{43}$/);

    const expectedClaims: Record<string, Record<string, unknown>> = {
      phone: { phone_number: '+84901234567', phone_commitment: commitments.phone },
      'org-1:loyalty': {
        'org-1:tier': 'gold',
        'org-1:points': '1200',
        'org-1:loyalty:commitment': commitments['org-1:loyalty'],
      },
    };
    for (const token of tokens) {
      const payload = decodeJwt(token);
      const scopeName = payload.scope_name as string;
      await verifyClaimToken(token, t.appPublicKey, {
        organizationId: 'org-1',
        credifyId: 'cred-1',
        scopeName,
        scopeHash: await scopeHash(expectedClaims[scopeName] as never),
      });
    }
  });

  it("signs the prior art's all-scopes scope_hash when config.claimScopeHash is all-scopes (WIRE §7)", async () => {
    const upserted: Record<string, string>[] = [];
    const t = await makeMarket({
      config: { claimScopeHash: 'all-scopes' },
      hooks: {
        async upsertCommitments(input) {
          upserted.push(input.commitments);
        },
      },
    });
    const response = await call(t.market, '/v1/push-claims', push({ id: 'u1', credify_id: 'cred-1' }));
    expect(response.status).toBe(200);
    const commitments = upserted[0]!;
    const claims = {
      phone: { phone_number: '+84901234567', phone_commitment: commitments.phone! },
      'org-1:loyalty': {
        'org-1:tier': 'gold',
        'org-1:points': '1200',
        'org-1:loyalty:commitment': commitments['org-1:loyalty']!,
      },
    };
    const [, tokens] = t.service.callsOf('pushClaimTokens')[0]!.args as [string, string[]];
    expect(tokens).toHaveLength(2);
    for (const token of tokens) {
      const scopeName = decodeJwt(token).scope_name as keyof typeof claims;
      const expected = await allScopesHash(claims, scopeName, commitments[scopeName]!);
      expect(expected).not.toBe(await scopeHash(claims[scopeName]));
      await verifyClaimToken(token, t.appPublicKey, { scopeName, scopeHash: expected });
    }
  });

  it('refuses a user pushing claims for another user ID (403)', async () => {
    const t = await makeMarket();
    const response = await call(t.market, '/v1/push-claims', push({ id: 'u2', credify_id: 'cred-1' }));
    expect(response.status).toBe(403);
    expect((await response.json()).code).toBe('forbidden');
    expect(t.service.calls).toEqual([]);
  });

  it('refuses without user credentials, and client credentials are not user credentials', async () => {
    const t = await makeMarket();
    const body = JSON.stringify({ id: 'u1', credify_id: 'c' });
    expect((await call(t.market, '/v1/push-claims', { method: 'POST', body })).status).toBe(401);
    const { API_TOKEN } = await import('./market-support.js');
    expect(
      (await call(t.market, '/v1/push-claims', push({ id: 'u1', credify_id: 'c' }, API_TOKEN))).status,
    ).toBe(401);
  });

  it('validates the body', async () => {
    const t = await makeMarket();
    const response = await call(t.market, '/v1/push-claims', push({ id: 'u1' }));
    expect(response.status).toBe(400);
    expect((await response.json()).errors).toEqual([{ path: 'credify_id', message: expect.any(String) }]);
  });

  it.each(['undefined', 'null', 'NaN', '[object Object]', ' null '])(
    'refuses the text of a missing value as an ID (%j): 400, nothing stored, the service not called',
    async (text) => {
      const updateUserId = vi.fn();
      const t = await makeMarket({ hooks: { updateUserId } });
      const response = await call(t.market, '/v1/push-claims', push({ id: 'u1', credify_id: text }));
      expect(response.status).toBe(400);
      expect((await response.json()).errors).toEqual([{ path: 'credify_id', message: expect.any(String) }]);
      expect(updateUserId).not.toHaveBeenCalled();
      expect(t.service.calls).toEqual([]);
    },
  );

  it('stores the service user ID only once the service accepted the tokens (user_not_found stores nothing)', async () => {
    const updateUserId = vi.fn();
    const upsert = vi.fn();
    const t = await makeMarket({ hooks: { updateUserId, upsertCommitments: upsert } });
    t.service.pushClaimTokens = async () => {
      const { KitError } = await import('../src/errors.js');
      throw new KitError('user_not_found', 'the service never issued this credify_id');
    };
    const response = await call(t.market, '/v1/push-claims', push({ id: 'u1', credify_id: 'crf-unknown' }));
    expect(response.status).toBe(404);
    expect(updateUserId).not.toHaveBeenCalled();
    expect(upsert).not.toHaveBeenCalled();
  });

  it('does not keep commitments when the push fails', async () => {
    const upsert = vi.fn();
    const t = await makeMarket({ hooks: { upsertCommitments: upsert } });
    t.service.pushClaimTokens = async () => {
      const { KitError } = await import('../src/errors.js');
      throw new KitError('upstream_unavailable', 'service down');
    };
    const response = await call(t.market, '/v1/push-claims', push({ id: 'u1', credify_id: 'cred-1' }));
    expect(response.status).toBe(503);
    expect(upsert).not.toHaveBeenCalled();
  });
});

const offersBody = {
  credify_id: 'cred-1',
  offers: [
    {
      code: 'GOLD_ONLY',
      campaign: { name: 'kept as sent' },
      conditions: [{ kind: 'EQUALITY_CONDITION', claim: 'org-1:tier', value: 'gold' }],
      required_custom_scopes: [['org-1:loyalty']],
    },
    {
      code: 'PLATINUM_ONLY',
      conditions: [{ kind: 'EQUALITY_CONDITION', claim: 'org-1:tier', value: 'platinum' }],
      required_custom_scopes: [['org-1:loyalty']],
    },
  ],
};

async function withToken(t: TestMarket, token: string, exp: number | undefined) {
  t.service.tokens.set(token, { active: true, scope: `openid ${OFFER_FILTER_SCOPE}`, exp });
}

describe('POST /v1/offers/filter', () => {
  it('introspects the bearer token, evaluates the offers and keeps those with rank > 0', async () => {
    const t = await makeMarket();
    await withToken(t, 'svc-token', undefined);
    const response = await call(t.market, '/v1/offers/filter', { ...push(offersBody), token: 'svc-token' });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({
      data: {
        offers: [
          {
            ...offersBody.offers[0],
            evaluation_result: {
              rank: 1,
              used_scopes: ['org-1:loyalty'],
              requested_scopes: ['org-1:loyalty'],
            },
          },
        ],
      },
    });
    expect(t.service.callsOf('introspectToken')[0]?.args).toEqual(['svc-token', OFFER_FILTER_SCOPE]);
  });

  it('asks the hook for the user with commitments, by whichever ID is given', async () => {
    const t = await makeMarket();
    await withToken(t, 'svc-token', undefined);
    const spy = vi.spyOn(t.hooks, 'fetchUserClaimObject');
    await call(t.market, '/v1/offers/filter', {
      ...push({ local_id: 'u1', offers: [] }),
      token: 'svc-token',
    });
    expect(spy.mock.calls[0]![0]).toEqual({
      localId: 'u1',
      credifyId: undefined,
      scopes: [],
      includeCommitments: true,
    });
  });

  it('answers 401 without a token, or for an inactive or unscoped one', async () => {
    const t = await makeMarket();
    t.service.tokens.set('no-scope', { active: true, scope: 'openid' });
    t.service.tokens.set('inactive', { active: false, scope: OFFER_FILTER_SCOPE });
    for (const token of [undefined, 'unknown', 'no-scope', 'inactive']) {
      const response = await call(t.market, '/v1/offers/filter', { ...push(offersBody), token });
      expect(response.status, String(token)).toBe(401);
    }
  });

  it('caches the introspection for the token lifetime', async () => {
    let now = Date.parse('2026-11-21T10:00:00Z');
    const t = await makeMarket({ now: () => now });
    await withToken(t, 'svc-token', now / 1000 + 120);
    const send = () => call(t.market, '/v1/offers/filter', { ...push(offersBody), token: 'svc-token' });
    await Promise.all([send(), send()]);
    await send();
    expect(t.service.callsOf('introspectToken')).toHaveLength(1);
    now += 121_000;
    expect((await send()).status).toBe(401);
    expect(t.service.callsOf('introspectToken')).toHaveLength(2);
  });

  it('answers 400 when neither ID is given or a condition is malformed', async () => {
    const t = await makeMarket();
    await withToken(t, 'svc-token', undefined);
    const noId = await call(t.market, '/v1/offers/filter', { ...push({ offers: [] }), token: 'svc-token' });
    expect(noId.status).toBe(400);
    const malformed = await call(t.market, '/v1/offers/filter', {
      ...push({
        credify_id: 'c',
        offers: [{ code: 'X', conditions: [{ kind: 'LARGER_THAN_CONDITION', claim: 'a', value: 'abc' }] }],
      }),
      token: 'svc-token',
    });
    expect(malformed.status).toBe(400);
  });
});

describe('POST /v1/push-claims, twice at once for one user', () => {
  /** The event loop's turns, not time: long enough for a second push to reach the service if nothing holds it. */
  const turns = async (n: number) => {
    for (let i = 0; i < n; i++) await new Promise((resolve) => setImmediate(resolve));
  };

  it('keeps the commitments of the tokens the service got last (one push per user at a time)', async () => {
    const upserted: Record<string, string>[] = [];
    const t = await makeMarket({
      hooks: {
        async upsertCommitments(input) {
          upserted.push(input.commitments);
        },
      },
    });
    const received: string[][] = [];
    let secondArrived: () => void = () => {};
    const second = new Promise<void>((resolve) => {
      secondArrived = resolve;
    });
    const pushTokens = t.service.pushClaimTokens.bind(t.service);
    t.service.pushClaimTokens = async (credifyId, tokens, ...rest) => {
      received.push(tokens);
      // The first push's answer is slow: without a claim per user the second overtakes it.
      if (received.length === 1) await Promise.race([second, turns(50)]);
      else secondArrived();
      return pushTokens(credifyId, tokens, ...rest);
    };
    const answers = await Promise.all([
      call(t.market, '/v1/push-claims', push({ id: 'u1', credify_id: 'cred-1' })),
      call(t.market, '/v1/push-claims', push({ id: 'u1', credify_id: 'cred-1' })),
    ]);
    expect(answers.map((a) => a.status)).toEqual([200, 200]);
    const held = received
      .at(-1)!
      .map((token) => decodeJwt(token))
      .find((p) => p.scope_name === 'phone')!;
    const kept = upserted.at(-1)!;
    expect(await scopeHash({ phone_number: '+84901234567', phone_commitment: kept.phone! })).toBe(
      held.scope_hash,
    );
  });
});

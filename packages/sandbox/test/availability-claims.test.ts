/** Availability (whitelist, basic and data-sharing), token introspection, pushed claim tokens. */
import { buildClaimObject } from '@bnpl-kit/core';
import { generateKeyPair, kitErrorOf } from '@bnpl-kit/core/testing';
import { filterOffers, READ_FILTERED_OFFERS_SCOPE, signClaimToken } from '@bnpl-kit/core/wire';
import { describe, expect, it } from 'vitest';
import type { SandboxOptions } from '../src/index.js';
import { directClient, FILTER_URL, marketOrg, pushClaims, startSandbox } from './support.js';

const goldOffer = {
  code: 'gold-only',
  conditions: [{ kind: 'EQUALITY_CONDITION', claim: 'org-market:tier', value: 'gold' }],
  required_custom_scopes: [['org-market:loyalty']],
};
const openOffer = { code: 'open', conditions: [], required_custom_scopes: [] };

function setup(orgOverrides: Record<string, unknown> = {}, options: SandboxOptions = {}, routes = {}) {
  return startSandbox(options, orgOverrides, routes);
}

describe('availability', () => {
  it('offers nothing to a market that is not whitelisted, but still returns the service user ID', async () => {
    const { sandbox, client } = setup({ whitelisted: false });
    const result = await client.checkAvailability({ localId: 'user-1', productTypes: ['consumerBNPL'] });
    expect(result.offers).toEqual([]);
    expect(result.credifyId).toMatch(/^crf_/);
    expect(sandbox.users.list()).toHaveLength(1);
  });

  it('returns the approved offers a basic-mode market can honour: none that needs its claims', async () => {
    // Basic mode shares no data, so an offer with conditions or custom scopes cannot be evaluated.
    const { client } = setup({ approvedOffers: [openOffer, goldOffer] });
    const result = await client.checkAvailability({ localId: 'user-1', productTypes: ['consumerBNPL'] });
    expect(result.offers.map((o) => o.code)).toEqual(['open']);
  });

  it('finds the same service user again by local ID or by credify ID', async () => {
    const { sandbox, client } = setup();
    const first = await client.checkAvailability({ localId: 'user-1', productTypes: [] });
    const again = await client.checkAvailability({ localId: 'user-1', productTypes: [] });
    const byId = await client.checkAvailability({
      localId: 'other',
      credifyId: first.credifyId!,
      productTypes: [],
    });
    expect(again.credifyId).toBe(first.credifyId);
    expect(byId.credifyId).toBe(first.credifyId);
    expect(sandbox.users.get(first.credifyId!)).toMatchObject({
      localId: 'user-1',
      organizationId: 'org-market',
    });
  });

  it('in data-sharing mode, lets the market rank offers with a token the market introspects', async () => {
    const seen: { authorization: string | undefined; body: Record<string, unknown> }[] = [];
    const { sandbox, client } = setup(
      { offerFilteringUrl: FILTER_URL, approvedOffers: [openOffer, goldOffer] },
      {},
      {
        // The market's offer filtering endpoint, as the kit's market handler would serve it.
        [FILTER_URL]: async (request: { headers: Record<string, string>; body: string }) => {
          const token = request.headers.authorization?.replace(/^Bearer /, '') ?? '';
          const introspection = await client.introspectToken(token, READ_FILTERED_OFFERS_SCOPE);
          if (!introspection.active) return new Response('', { status: 401 });
          const body = JSON.parse(request.body) as Record<string, unknown>;
          seen.push({ authorization: request.headers.authorization, body });
          const claims = { 'org-market:loyalty': { 'org-market:tier': 'silver' } };
          return Response.json(filterOffers(body as never, claims));
        },
      },
    );
    const result = await client.checkAvailability({ localId: 'user-7', productTypes: ['consumerBNPL'] });
    expect(result.offers).toEqual([
      { ...openOffer, evaluation_result: { rank: 1, used_scopes: [], requested_scopes: [] } },
    ]);
    expect(seen[0]?.body).toMatchObject({
      credify_id: result.credifyId,
      local_id: 'user-7',
      offers: [openOffer, goldOffer],
    });
    const token = seen[0]!.authorization!.slice('Bearer '.length);
    const introspection = await client.introspectToken(token, READ_FILTERED_OFFERS_SCOPE);
    expect(introspection).toMatchObject({
      active: true,
      scope: READ_FILTERED_OFFERS_SCOPE,
      aud: 'org-market',
    });
    expect(introspection.exp).toBe(Math.floor(sandbox.clock.now() / 1000) + 3600);
  });

  it('introspection: an API token lacks the filter scope; another organisation learns nothing', async () => {
    const { sandbox, client } = setup(
      {},
      {
        organizations: [marketOrg(), { id: 'org-other', apiKeys: ['sk_other_key_123'] }],
      },
    );
    await client.checkAvailability({ localId: 'u', productTypes: [] });
    const apiToken = [...sandbox.state.tokens.values()][0]!.value;
    expect((await client.introspectToken(apiToken, READ_FILTERED_OFFERS_SCOPE)).active).toBe(false);
    expect((await client.introspectToken(apiToken, 'claim_provider')).active).toBe(true);
    const other = directClient(sandbox, { apiKey: 'sk_other_key_123' });
    expect((await other.introspectToken(apiToken, '')).active).toBe(false);
  });

  it('introspection: an expired token is inactive', async () => {
    const { sandbox, client } = setup({}, { tokenTtlSeconds: 60 });
    await client.checkAvailability({ localId: 'u', productTypes: [] });
    const token = [...sandbox.state.tokens.values()][0]!.value;
    await sandbox.tick(60_000);
    const fresh = directClient(sandbox);
    expect((await fresh.introspectToken(token, 'claim_provider')).active).toBe(false);
  });

  it.each([
    ['answers 500', () => new Response('boom', { status: 500 })],
    ['answers another shape', () => Response.json({ offers: [] })],
    [
      'is unreachable',
      () => {
        throw new TypeError('fetch failed');
      },
    ],
  ])('fails visibly (502 → upstream_rejected) when the market filter %s', async (_, answer) => {
    const { client } = setup({ offerFilteringUrl: FILTER_URL }, {}, { [FILTER_URL]: answer });
    const error = await kitErrorOf(client.checkAvailability({ localId: 'u', productTypes: [] }));
    expect(error.code).toBe('upstream_rejected');
  });
});

describe('pushed claim tokens', () => {
  async function pushSetup() {
    const keys = await generateKeyPair();
    const ctx = setup({ signingKey: keys.privateKeyPem });
    const { credifyId } = await ctx.client.checkAvailability({ localId: 'user-1', productTypes: [] });
    return { ...ctx, keys, credifyId: credifyId! };
  }

  it('are verified, stored per scope, and checkable against the market commitments', async () => {
    const { sandbox, client, keys, credifyId } = await pushSetup();
    const claims = buildClaimObject({
      organizationId: 'org-market',
      profile: { email: 'a@example.com' },
      providingBasicProfile: 'email',
      customScopes: { loyalty: { tier: 'gold' } },
      withCommitments: true,
    });
    const _tokens = await pushClaims(client, { claims, credifyId, signingKey: keys.seed });
    expect(
      sandbox.claims
        .list(credifyId)
        .map((c) => c.scopeName)
        .sort(),
    ).toEqual(['email', 'org-market:loyalty']);
    for (const [scopeName, scopeClaims] of Object.entries(claims)) {
      expect(await sandbox.claims.matches(credifyId, scopeName, scopeClaims)).toBe(true);
    }
    const tampered = { ...claims['org-market:loyalty'], 'org-market:tier': 'platinum' };
    expect(await sandbox.claims.matches(credifyId, 'org-market:loyalty', tampered)).toBe(false);
  });

  it('verify with a registered public key as well as a derived one', async () => {
    const keys = await generateKeyPair();
    const { client } = setup({ publicKey: keys.publicKeyPem });
    const { credifyId } = await client.checkAvailability({ localId: 'u', productTypes: [] });
    const token = await signClaimToken({
      organizationId: 'org-market',
      credifyId: credifyId!,
      scopeName: 'phone',
      scopeHash: 'A'.repeat(43),
      signingKey: keys.privateKeyPem,
    });
    await expect(client.pushClaimTokens(credifyId!, [token])).resolves.toBeUndefined();
  });

  it.each([
    ['a wrong iss', { organizationId: 'org-evil' }, /iss/],
    ['a wrong user_id', { credifyId: 'crf_someone_else' }, /user_id/],
    ['a foreign scope name', { scopeName: 'org-evil:loyalty' }, /scope/],
  ])('refuse a token with %s', async (_, change, message) => {
    const { sandbox, client, keys, credifyId } = await pushSetup();
    const token = await signClaimToken({
      organizationId: 'org-market',
      credifyId,
      scopeName: 'org-market:loyalty',
      scopeHash: 'A'.repeat(43),
      signingKey: keys.privateKeyPem,
      ...change,
    });
    const error = await kitErrorOf(client.pushClaimTokens(credifyId, [token]));
    expect(error.code).toBe('validation_failed');
    expect(error.message).toMatch(message);
    expect(sandbox.claims.list(credifyId)).toEqual([]);
  });

  it('refuse a token signed with another key, and keep nothing of a partly bad push', async () => {
    const { sandbox, client, keys, credifyId } = await pushSetup();
    const stranger = await generateKeyPair();
    const input = { organizationId: 'org-market', credifyId, scopeHash: 'A'.repeat(43) };
    const good = await signClaimToken({ ...input, scopeName: 'email', signingKey: keys.privateKeyPem });
    const bad = await signClaimToken({ ...input, scopeName: 'phone', signingKey: stranger.privateKeyPem });
    const error = await kitErrorOf(client.pushClaimTokens(credifyId, [good, bad]));
    expect(error.message).toMatch(/claim_tokens\[1\].*signature/);
    expect(sandbox.claims.list(credifyId)).toEqual([]);
  });

  it('are refused when the organisation has no key registered', async () => {
    const { client } = setup();
    const { credifyId } = await client.checkAvailability({ localId: 'u', productTypes: [] });
    expect((await kitErrorOf(client.pushClaimTokens(credifyId!, ['a.b.c']))).code).toBe('conflict');
  });
});

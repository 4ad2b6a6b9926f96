/**
 * Offer filtering (WIRE §5, §7; data-sharing mode). The service calls the market with a bearer token
 * it issued; the suite drives that call the real way, through an availability check at the service,
 * with approved offers whose conditions a known user meets or misses. Callers without an active token
 * are refused.
 */
import type { ClaimObject } from '@bnpl-kit/core';
import type { ClaimValue } from '@bnpl-kit/core/wire';
import { commitmentKeyFor } from '@bnpl-kit/core/wire';
import { ensure, expectProblem, isObject } from '../expect.js';
import type { HttpExchange } from '../http.js';
import { routeUrl } from '../support/routes.js';
import { signedInUser } from '../support/users.js';
import { type CheckContext, type ContractCheck, DATA_SHARING_ONLY, type TestUser } from '../types.js';

interface PickedClaim {
  scope: string;
  key: string;
  value: string | number | boolean;
}

/** A scalar claim to build conditions on (never a commitment: conditions cannot read those). */
function pickClaim(claims: ClaimObject | undefined): PickedClaim | undefined {
  for (const [scope, values] of Object.entries(claims ?? {})) {
    for (const [key, value] of Object.entries(values)) {
      if (key === commitmentKeyFor(scope)) continue;
      if (['string', 'number', 'boolean'].includes(typeof value))
        return { scope, key, value: value as string | number | boolean };
    }
  }
  return undefined;
}

function claimValue(claims: ClaimObject | undefined, picked: PickedClaim): ClaimValue | undefined {
  return claims?.[picked.scope]?.[picked.key];
}

function callFilter(
  ctx: CheckContext,
  headers: Record<string, string>,
  localId: string,
): Promise<HttpExchange> {
  return ctx.http.send(routeUrl(ctx, 'filterOffers'), {
    method: 'POST',
    headers,
    json: { local_id: localId, offers: [{ code: 'any', conditions: [], required_custom_scopes: [] }] },
  });
}

/** Ranks by offer code from the offers the service got back from the market. */
async function ranksFor(
  ctx: CheckContext,
  user: TestUser,
): Promise<Map<string, number> & { offers: unknown[] }> {
  const answer = await ctx.sandbox.availability(user.id);
  ensure(answer.status === 200, {
    expected: `the service's availability check for ${user.id} to succeed, which needs the market's offer filter to answer { "data": { "offers": [...] } }`,
    actual: `${answer.status}: ${answer.error ?? 'no message'}`,
    spec: 'WIRE §7',
  });
  const ranks = Object.assign(new Map<string, number>(), { offers: answer.offers as unknown[] });
  for (const offer of answer.offers) {
    const result = offer.evaluation_result;
    if (typeof offer.code === 'string' && isObject(result) && typeof result.rank === 'number')
      ranks.set(offer.code, result.rank);
  }
  return ranks;
}

async function usersWithClaims(
  ctx: CheckContext,
): Promise<{ user: TestUser; claims: ClaimObject | undefined }[]> {
  const users = await ctx.users();
  return Promise.all(
    users.map(async (user) => ({ user, claims: user.claims ?? (await ctx.storedClaims(user)) })),
  );
}

export const offerChecks: ContractCheck[] = [
  {
    id: 'offers.filter.unauthenticated',
    title: 'The offer filter refuses a caller without a bearer token (401)',
    modes: DATA_SHARING_ONLY,
    spec: 'WIRE §5',
    rules: ['R-EP-15', 'R-ERR-05'],
    async run(ctx) {
      expectProblem(await callFilter(ctx, {}, 'someone'), 401, {
        what: 'for offer filtering without a token',
        code: 'unauthenticated',
      });
    },
  },
  {
    id: 'offers.filter.inactive-token',
    title: 'The offer filter refuses a token the service does not know (401)',
    modes: DATA_SHARING_ONLY,
    spec: 'WIRE §5',
    rules: ['R-EP-15'],
    async run(ctx) {
      const exchange = await callFilter(
        ctx,
        { authorization: `Bearer ${ctx.unique('at_unknown')}` },
        'someone',
      );
      expectProblem(exchange, 401, {
        what: 'for offer filtering with a token the service says is inactive',
        code: 'unauthenticated',
      });
    },
  },
  {
    id: 'offers.filter.token-without-scope',
    title: 'The offer filter refuses a service token that lacks the offer filtering scope',
    modes: DATA_SHARING_ONLY,
    spec: 'WIRE §5',
    rules: ['R-EP-15'],
    async run(ctx) {
      const token = await ctx.sandbox.apiAccessToken();
      const exchange = await callFilter(ctx, { authorization: `Bearer ${token}` }, 'someone');
      expectProblem(exchange, [401, 403], {
        what: 'for offer filtering with a token without claim_provider:read_filtered_offers',
      });
    },
  },
  {
    id: 'offers.filter.introspection-cached',
    title:
      "The service's offer filtering token is introspected once and cached for its lifetime: a second call with it asks the service nothing",
    modes: DATA_SHARING_ONLY,
    spec: 'WIRE §5',
    rules: ['R-EP-16', 'R-EP-15'],
    async run(ctx) {
      const user = await signedInUser(ctx);
      const token = await ctx.sandbox.offerFilterToken();
      const since = await ctx.sandbox.lastCallId();
      for (const call of ['first', 'second']) {
        const exchange = await callFilter(ctx, { authorization: `Bearer ${token}` }, user.id);
        ensure(exchange.status === 200, {
          expected: `200 for the ${call} offer filtering call with a token the service issued (an hour to live)`,
          exchange,
          spec: 'WIRE §5',
        });
      }
      const introspections = (await ctx.sandbox.serviceCalls(since)).filter(
        (c) => c.operation === 'introspectToken',
      );
      ensure(introspections.length === 1, {
        expected:
          "one introspection for two calls with the same token: its answer cached for the token's lifetime (R-EP-16)",
        actual: `${introspections.length} introspection call(s)`,
        spec: 'WIRE §5',
      });
    },
  },
  {
    id: 'offers.filter.ranks',
    title: 'Offers are ranked per level for a user who meets and dropped for one who misses the conditions',
    modes: DATA_SHARING_ONLY,
    spec: 'WIRE §7',
    rules: ['R-OFFER-02', 'R-OFFER-03', 'R-OFFER-11'],
    async run(ctx) {
      const known = await usersWithClaims(ctx);
      const subject = known.find((k) => pickClaim(k.claims) !== undefined);
      if (!subject)
        return ctx.skip('needs a demo user whose "claims" hold a string, number or boolean claim');
      const picked = pickClaim(subject.claims)!;
      const tag = ctx.unique('offer');
      const never = `${tag}-matches-nobody`;
      const equals = (value: string | number | boolean) => ({
        kind: 'EQUALITY_CONDITION',
        claim: picked.key,
        scope: picked.scope,
        value,
      });
      const offers = [
        {
          code: `${tag}-meets`,
          campaign: { name: 'kept as sent' },
          conditions: [equals(picked.value)],
          required_custom_scopes: [],
        },
        {
          code: `${tag}-first-level-only`,
          conditions: [equals(picked.value), equals(never)],
          required_custom_scopes: [],
        },
        { code: `${tag}-misses`, conditions: [equals(never)], required_custom_scopes: [] },
        { code: `${tag}-unconditional`, conditions: [], required_custom_scopes: [] },
      ];
      const previous = await ctx.sandbox.setApprovedOffers(offers);
      try {
        const ranks = await ranksFor(ctx, subject.user);
        const expected: Record<string, number | undefined> = {
          [`${tag}-meets`]: 1,
          [`${tag}-first-level-only`]: 1,
          [`${tag}-misses`]: undefined,
          [`${tag}-unconditional`]: 1,
        };
        for (const [code, rank] of Object.entries(expected)) {
          ensure(ranks.get(code) === rank, {
            expected: `offer ${code} ${rank === undefined ? 'to be left out (rank 0)' : `to have rank ${rank}`} for user ${subject.user.id} whose ${picked.key} is ${JSON.stringify(picked.value)}`,
            actual: `ranks ${JSON.stringify(Object.fromEntries(ranks))}`,
          });
        }
        const echoed = ranks.offers.find((o) => isObject(o) && o.code === `${tag}-meets`);
        ensure(isObject(echoed) && isObject(echoed.campaign) && echoed.campaign.name === 'kept as sent', {
          expected: 'each kept offer echoed as the service sent it, plus "evaluation_result"',
          actual: JSON.stringify(echoed)?.slice(0, 300) ?? 'the offer is missing',
        });
        const other = known.find((k) => k !== subject && claimValue(k.claims, picked) !== picked.value);
        if (other) {
          const otherRanks = await ranksFor(ctx, other.user);
          ensure(!otherRanks.has(`${tag}-meets`) && otherRanks.get(`${tag}-unconditional`) === 1, {
            expected: `user ${other.user.id}, whose ${picked.key} differs, to miss offer ${tag}-meets and keep ${tag}-unconditional`,
            actual: `ranks ${JSON.stringify(Object.fromEntries(otherRanks))}`,
          });
        }
      } finally {
        await ctx.sandbox.setApprovedOffers(previous);
      }
    },
  },
];

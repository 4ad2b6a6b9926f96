/**
 * Push-claims (WIRE §5, §7; data-sharing mode): only the signed-in user's own ID, one EdDSA claim
 * token per scope signed with the organisation's key, each scope hash over that scope's claims with
 * a fresh commitment that the market keeps. Tokens are read back from the service and verified here
 * with core's claim functions, independently of the market.
 */

import { isKitError } from '@bnpl-kit/core';
import { commitmentKeyFor, scopeHash, verifyClaimToken } from '@bnpl-kit/core/wire';
import { ensure, expectJsonObject, expectProblem, expectStatus, fail } from '../expect.js';
import type { ClaimTokenView } from '../sandbox/driver.js';
import { tokenNearMisses } from '../support/credentials.js';
import { keptClaims, pushClaims, pushOwnClaims } from '../support/push-claims.js';
import { bearer, type SignedInUser, signedIn, signedInAtService } from '../support/users.js';
import { type CheckContext, type ContractCheck, DATA_SHARING_ONLY } from '../types.js';

const COMMITMENT = /^[A-Za-z0-9_-]{43}$/;
/** How far a market's clock may be from certify's for a claim token's iat (the webhook window's default). */
const IAT_SKEW_SECONDS = 300;

/**
 * WIRE §7 R-CLAIM-01: the standard scopes and the claim keys each holds (`profile` may also hold
 * `name`, the full name, as the kit's claim builder gives it). Every other scope is a custom one,
 * `<organization_id>:<scope_key>`, whose claim keys are `<organization_id>:<claim_key>`.
 */
const STANDARD_CLAIMS: Readonly<Record<string, readonly string[]>> = {
  phone: ['phone_number'],
  profile: ['given_name', 'family_name', 'name'],
  email: ['email'],
  address: ['address'],
};

/** What is wrong with the names and shape of one scope of a shown claim object (R-CLAIM-01). */
function scopeNameIssues(organizationId: string, scope: string, values: unknown): string[] {
  const where = `scope ${JSON.stringify(scope)}`;
  if (values === null || typeof values !== 'object' || Array.isArray(values))
    return [`${where} is ${JSON.stringify(values)}, not a claim map`];
  const standard = STANDARD_CLAIMS[scope];
  const custom = scope.startsWith(`${organizationId}:`) && scope.length > organizationId.length + 1;
  if (standard === undefined && !custom)
    return [
      `${where} is neither a standard scope (${Object.keys(STANDARD_CLAIMS).join(', ')}) nor "${organizationId}:<scope_key>"`,
    ];
  const claims = Object.entries(values).filter(([key]) => key !== commitmentKeyFor(scope));
  const issues: string[] = [];
  if (claims.length === 0) issues.push(`${where} holds no claim (a scope without a claim is not shared)`);
  for (const [key, value] of claims) {
    const named = standard === undefined ? key.startsWith(`${organizationId}:`) : standard.includes(key);
    if (!named)
      issues.push(
        `${where} holds ${JSON.stringify(key)}; its claim keys are ${standard === undefined ? `"${organizationId}:<claim_key>"` : standard.map((k) => JSON.stringify(k)).join(', ')}`,
      );
    else if (standard !== undefined && key === 'address') {
      const formatted = (value as { formatted?: unknown } | null)?.formatted;
      if (typeof formatted !== 'string') issues.push(`${where}: "address" is not { "formatted": "<text>" }`);
    } else if (standard !== undefined && typeof value !== 'string')
      issues.push(`${where}: ${JSON.stringify(key)} is ${JSON.stringify(value)}, not a string`);
  }
  return issues;
}

interface Pushed {
  user: SignedInUser;
  credifyId: string;
  /** The claim tokens the service holds for the user after the push. */
  tokens: ClaimTokenView[];
}

/** The user pushes their own claims; returns the tokens the service then holds. */
async function push(ctx: CheckContext, user: SignedInUser, credifyId: string): Promise<ClaimTokenView[]> {
  const exchange = await pushOwnClaims(ctx, user, credifyId);
  expectStatus(exchange, 200, "for pushing the signed-in user's own claims");
  const body = expectJsonObject(exchange, 'for push-claims');
  ensure(body.credify_id === credifyId, { expected: `200 { "credify_id": "${credifyId}" }`, exchange });
  const tokens = await ctx.sandbox.claimTokens(credifyId);
  ensure(tokens.length > 0, {
    expected: 'the market to push at least one claim token to the service',
    actual: 'the service received none',
    spec: 'WIRE §6, §7',
  });
  return tokens;
}

/** The first signed-in user pushes their claims (skipped without one). */
async function pushAsSignedInUser(ctx: CheckContext): Promise<Pushed> {
  const { user, credifyId } = await signedInAtService(ctx);
  return { user, credifyId, tokens: await push(ctx, user, credifyId) };
}

export const pushClaimsChecks: ContractCheck[] = [
  {
    id: 'push-claims.unauthenticated',
    title: 'Push-claims without a session, or with an unknown one, is a 401 problem',
    modes: DATA_SHARING_ONLY,
    spec: 'spec: Authentication',
    rules: ['R-ERR-05'],
    async run(ctx) {
      const body = { id: 'someone', credify_id: 'crf_someone' };
      expectProblem(await pushClaims(ctx, {}, body), 401, {
        what: 'for push-claims without a session',
        code: 'unauthenticated',
      });
      const wrong = await pushClaims(ctx, bearer(ctx.unique('no-such-session')), body);
      expectProblem(wrong, 401, {
        what: 'for push-claims with an unknown session token',
        code: 'unauthenticated',
      });
    },
  },
  {
    id: 'push-claims.near-session-tokens',
    title:
      "Push-claims with a token near a user's session token (changed, shortened, extended, in the other case, a prefix, empty) is a 401 problem, and nothing is pushed",
    modes: DATA_SHARING_ONLY,
    spec: 'spec: Authentication',
    rules: ['R-ERR-05', 'R-EP-12'],
    async run(ctx) {
      const [me] = await signedIn(ctx);
      const credifyId = await ctx.sandbox.serviceUserId(me!.id);
      const before = (await ctx.sandbox.claimTokens(credifyId)).length;
      const accepted: string[] = [];
      for (const [what, token] of tokenNearMisses(me!.sessionToken)) {
        const exchange = await pushClaims(ctx, bearer(token), { id: me!.id, credify_id: credifyId });
        if (exchange.status !== 401) accepted.push(`the session token ${what}: HTTP ${exchange.status}`);
        else expectProblem(exchange, 401, { what: `for the session token ${what}`, code: 'unauthenticated' });
      }
      const after = (await ctx.sandbox.claimTokens(credifyId)).length;
      ensure(accepted.length === 0 && after === before, {
        expected: `401 for every token next to user ${me!.id}'s session token, and no claim token at the service`,
        actual: [...accepted, `${after - before} new claim token(s) at the service`].join('\n    '),
        spec: 'spec: Authentication',
      });
    },
  },
  {
    id: 'push-claims.other-user-forbidden',
    title: 'A signed-in user cannot push claims for another user ID (403), and nothing is pushed',
    modes: DATA_SHARING_ONLY,
    spec: 'WIRE §5',
    rules: ['R-EP-13', 'R-ERR-06'],
    async run(ctx) {
      const users = await signedIn(ctx);
      const me = users[0]!;
      const other = users[1]?.id ?? `${me.id}-someone-else`;
      const credifyId = await ctx.sandbox.serviceUserId(other);
      const before = (await ctx.sandbox.claimTokens(credifyId)).map((t) => t.token);
      const exchange = await pushClaims(ctx, bearer(me.sessionToken), { id: other, credify_id: credifyId });
      expectProblem(exchange, 403, {
        what: `for user ${me.id} pushing claims for user ${other}`,
        code: 'forbidden',
        spec: 'WIRE §5',
      });
      const after = (await ctx.sandbox.claimTokens(credifyId)).map((t) => t.token);
      ensure(after.length === before.length && after.every((t) => before.includes(t)), {
        expected: 'no claim token to reach the service for a refused push',
        actual: `${after.length - before.length} new token(s) at the service`,
      });
    },
  },
  {
    id: 'push-claims.tokens-verify',
    title: 'Pushed claim tokens are EdDSA JWTs signed with the organisation key, one per scope',
    modes: DATA_SHARING_ONLY,
    spec: 'WIRE §7',
    rules: ['R-CLAIM-05', 'R-CLAIM-06', 'R-EP-12'],
    async run(ctx) {
      // iat is a JWT NumericDate: SECONDS since the epoch, the time of this push. Milliseconds (an
      // integer too) would pass the payload's type check, so the value is held to the push's window,
      // with IAT_SKEW_SECONDS either side for a market whose clock differs from ours.
      const started = Math.floor(Date.now() / 1000);
      const { credifyId, tokens } = await pushAsSignedInUser(ctx);
      const ended = Math.ceil(Date.now() / 1000);
      const publicKey = await ctx.sandbox.claimPublicKey();
      if (publicKey === undefined) return ctx.skip('the service has no public key for the organisation');
      for (const t of tokens) {
        let iat: number | undefined;
        try {
          ({ iat } = await verifyClaimToken(t.token, publicKey, {
            organizationId: ctx.sandbox.organizationId,
            credifyId,
            scopeName: t.scopeName,
            scopeHash: t.scopeHash,
          }));
        } catch (error) {
          fail({
            expected: `the claim token for scope ${t.scopeName} to verify ({"alg":"EdDSA","typ":"JWT"}, iss = APP_ID, user_id = credify_id)`,
            actual: isKitError(error) ? error.message : String(error),
          });
        }
        ensure(iat >= started - IAT_SKEW_SECONDS && iat <= ended + IAT_SKEW_SECONDS, {
          expected: `the claim token for scope ${t.scopeName} to carry "iat" = the push time in seconds since the epoch (JWT NumericDate), within ${IAT_SKEW_SECONDS} s of ${started}–${ended}`,
          actual: `"iat": ${iat}`,
        });
      }
      const scopes = tokens.map((t) => t.scopeName);
      ensure(new Set(scopes).size === scopes.length, {
        expected: 'one token per scope',
        actual: `scopes ${scopes.join(', ')}`,
      });
    },
  },
  {
    id: 'push-claims.scope-hash-matches-commitments',
    title: "Each scope hash is SHA-256 of that scope's claims with the commitment the market stored",
    modes: DATA_SHARING_ONLY,
    spec: 'WIRE §7',
    rules: ['R-CLAIM-01', 'R-CLAIM-04', 'R-CLAIM-07'],
    async run(ctx) {
      const { user, tokens } = await pushAsSignedInUser(ctx);
      const stored = await ctx.storedClaims(user);
      if (stored === undefined) {
        const shown = (await ctx.users()).find((u) => u.id === user.id)?.claims;
        // Claims shown without commitments after a successful push: not stored (or not shown).
        if (shown !== undefined)
          fail({
            expected: `GET /demo-user to show ${user.id}'s claims with the commitments of the push that just succeeded (WIRE §5: "claims are the stored claims with the last push's commitments")`,
            actual:
              'commitments-not-stored: the claims carry no commitment entries, so the market did not store them (upsertCommitments after the push) or leaves them out of demo-user',
            spec: 'WIRE §5, §7',
          });
        return ctx.notExercised(
          'stored-commitments',
          'the market shows no stored claims (no "claims" in GET /demo-user, no storedClaims option), so the scope hashes could not be compared with what it stored',
        );
      }
      for (const t of tokens) {
        const scope = stored[t.scopeName];
        const commitment = scope?.[commitmentKeyFor(t.scopeName)];
        ensure(typeof commitment === 'string' && COMMITMENT.test(commitment), {
          expected: `the market to keep a commitment (32 random bytes, base64url) for scope ${t.scopeName}`,
          actual: scope === undefined ? 'no such scope stored' : `commitment ${JSON.stringify(commitment)}`,
        });
        const recomputed = await scopeHash(scope!);
        ensure(recomputed === t.scopeHash, {
          expected: `scope_hash of ${t.scopeName} = base64url(SHA-256(RFC 8785 JSON of the stored scope claims)) = ${recomputed}`,
          actual: `scope_hash ${t.scopeHash} in the pushed token`,
        });
      }
    },
  },
  {
    id: 'push-claims.claim-names',
    title:
      'The claims a market keeps are named as WIRE §7 names them: standard scopes with their own claim keys, custom scopes and claims under the organisation ID',
    modes: DATA_SHARING_ONLY,
    spec: 'WIRE §7',
    rules: ['R-CLAIM-01'],
    async run(ctx) {
      // The names are what a provider's offer conditions read (`phone_number`, `<org>:<key>`): a claim
      // stored under another name is one no condition finds. After a push, so the scopes pushed are shown.
      const { user, tokens } = await pushAsSignedInUser(ctx);
      const claims = await keptClaims(ctx, user);
      if (claims === undefined)
        return ctx.notExercised(
          'stored-commitments',
          'the market shows no claims (no "claims" in GET /demo-user, no storedClaims option), so their names could not be read',
        );
      const organizationId = ctx.sandbox.organizationId;
      const issues = Object.entries(claims).flatMap(([scope, values]) =>
        scopeNameIssues(organizationId, scope, values),
      );
      for (const t of tokens)
        if (!Object.hasOwn(claims, t.scopeName))
          issues.push(
            `a claim token for scope ${JSON.stringify(t.scopeName)}, which the claims shown do not hold`,
          );
      ensure(issues.length === 0, {
        expected: `user ${user.id}'s claims named as R-CLAIM-01 names them: phone { phone_number }, profile { given_name, family_name }, email { email }, address { address: { formatted } }, custom "${organizationId}:<scope_key>" { "${organizationId}:<claim_key>" }`,
        actual: issues.join('\n    '),
        spec: 'WIRE §7',
      });
    },
  },
  {
    id: 'push-claims.fresh-commitments',
    title: 'Every push uses a fresh commitment per scope (scope hashes change)',
    modes: DATA_SHARING_ONLY,
    spec: 'WIRE §7',
    rules: ['R-CLAIM-03'],
    async run(ctx) {
      const { user, credifyId, tokens: first } = await pushAsSignedInUser(ctx);
      const second = await push(ctx, user, credifyId);
      for (const t of second) {
        const earlier = first.find((f) => f.scopeName === t.scopeName);
        ensure(earlier === undefined || earlier.scopeHash !== t.scopeHash, {
          expected: `a new commitment for scope ${t.scopeName} on every push, so its scope_hash changes`,
          actual: `the same scope_hash ${t.scopeHash} twice`,
        });
      }
    },
  },
];

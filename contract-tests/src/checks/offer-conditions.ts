/**
 * Offer filtering in depth (WIRE §7): each of the eight condition kinds on a claim the demo user has
 * (numbers also as digit strings), custom scopes and `required_custom_scopes`, the rank rule across
 * levels, `used_scopes` / `requested_scopes`, and the requests availability never sends (malformed
 * conditions, no user ID), which the suite sends itself with a token the service issued.
 */
import type { ClaimObject } from '@bnpl-kit/core';
import { commitmentKeyFor, LEAF_CONDITION_KINDS } from '@bnpl-kit/core/wire';
import { ensure, expectProblem, isObject } from '../expect.js';
import { OBJECT_MEMBER_NAMES } from '../support/domain-cases.js';
import { userWithPushedClaims } from '../support/push-claims.js';
import { routeUrl } from '../support/routes.js';
import { bearer } from '../support/users.js';
import { type CheckContext, type ContractCheck, DATA_SHARING_ONLY, type TestUser } from '../types.js';

interface Claim {
  scope: string;
  key: string;
  value: unknown;
}

const DIGITS = /^\d{1,15}$/;

/** The bounds of both range forms (R-OFFER-07); the leaf kinds are core's (R-OFFER-05). */
const RANGE_BOUNDS = ['min', 'max', 'value', 'upper'] as const;
/** JSON values that are no object: each is a condition without a kind. */
const NOT_OBJECTS: unknown[] = [
  [],
  '',
  0,
  false,
  true,
  'EQUALITY_CONDITION',
  [{ kind: 'EQUALITY_CONDITION' }],
];
/** How a missing value prints in the languages markets are written in. */
const MISSING_TEXTS = ['undefined', 'null', 'None', 'nil', '<nil>', ''];

/** Spellings of n that number parsers accept but that are no digit strings: a sign, spaces, an exponent, hex, a trailing point. */
function notDigitStrings(n: number): string[] {
  return [`+${n}`, ` ${n}`, `${n} `, `${n}e0`, `0x${n.toString(16)}`, `${n}.`];
}

function claimsOf(claims: ClaimObject | undefined): Claim[] {
  const out: Claim[] = [];
  for (const [scope, values] of Object.entries(claims ?? {})) {
    for (const [key, value] of Object.entries(values)) {
      if (key !== commitmentKeyFor(scope) && !key.endsWith(':commitment')) out.push({ scope, key, value });
    }
  }
  return out;
}

/** A whole number claim, stored as a number or a digit string. */
function numericClaim(claims: Claim[]): (Claim & { n: number }) | undefined {
  for (const c of claims) {
    if (typeof c.value === 'number' && Number.isSafeInteger(c.value) && c.value >= 0)
      return { ...c, n: c.value };
    if (typeof c.value === 'string' && DIGITS.test(c.value)) return { ...c, n: Number(c.value) };
  }
  return undefined;
}

function stringClaim(claims: Claim[]): (Claim & { s: string }) | undefined {
  for (const c of claims)
    if (typeof c.value === 'string' && c.value.length > 1 && !DIGITS.test(c.value))
      return { ...c, s: c.value };
  return undefined;
}

interface Subject {
  user: TestUser;
  num: Claim & { n: number };
  str: Claim & { s: string };
  /** A custom scope (`<organization_id>:<scope_key>`) the user has. */
  custom: string | undefined;
  /** Every claim of the user, in the order of the claim object. */
  claims: Claim[];
}

async function subjectFor(ctx: CheckContext): Promise<Subject> {
  for (const user of await ctx.users()) {
    const claims = claimsOf(user.claims ?? (await ctx.storedClaims(user)));
    const num = numericClaim(claims);
    const str = stringClaim(claims);
    const custom = claims.find((c) => c.scope.includes(':'))?.scope;
    if (num && str) return { user, num, str, custom, claims };
  }
  return ctx.skip(
    'needs a demo user whose "claims" hold a whole-number claim (a number or a digit string) and a text claim',
  );
}

type Leaf = Record<string, unknown>;

function leaf(c: Claim, kind: string, value: unknown): Leaf {
  return { kind, claim: c.key, scope: c.scope, value };
}

/** Ranks by offer code, and the evaluation results, as the service got them back from the market. */
async function rank(
  ctx: CheckContext,
  user: TestUser,
  offers: Record<string, unknown>[],
): Promise<Map<string, Record<string, unknown>>> {
  const previous = await ctx.sandbox.setApprovedOffers(offers);
  try {
    const answer = await ctx.sandbox.availability(user.id);
    ensure(answer.status === 200, {
      expected: `the service's availability check for ${user.id} to succeed (the market's offer filter answering { "data": { "offers": [...] } })`,
      actual: `${answer.status}: ${answer.error ?? 'no message'}`,
      spec: 'WIRE §7',
    });
    const results = new Map<string, Record<string, unknown>>();
    for (const offer of answer.offers) {
      if (typeof offer.code === 'string' && isObject(offer.evaluation_result))
        results.set(offer.code, offer.evaluation_result);
    }
    return results;
  } finally {
    await ctx.sandbox.setApprovedOffers(previous);
  }
}

function expectRanks(
  results: Map<string, Record<string, unknown>>,
  expected: Record<string, number | undefined>,
  why: Record<string, string>,
): void {
  const got = Object.fromEntries([...results].map(([code, r]) => [code, r.rank]));
  for (const [code, wanted] of Object.entries(expected)) {
    ensure(results.get(code)?.rank === wanted, {
      expected: `offer ${code} (${why[code]}) ${wanted === undefined ? 'to be left out (rank 0)' : `to rank ${wanted}`}`,
      actual: `ranks ${JSON.stringify(got)}`,
    });
  }
}

async function callFilter(ctx: CheckContext, body: unknown) {
  const token = await ctx.sandbox.offerFilterToken();
  return ctx.http.send(routeUrl(ctx, 'filterOffers'), {
    method: 'POST',
    json: body,
    headers: bearer(token),
  });
}

export const offerConditionChecks: ContractCheck[] = [
  {
    id: 'offers.filter.commitments-unreadable',
    title:
      "No condition reads a scope's commitment: a condition on a commitment entry fails, whatever it compares and however it names the scope",
    modes: DATA_SHARING_ONLY,
    spec: 'WIRE §7; spec: Commitment rules',
    rules: ['R-OFFER-15'],
    async run(ctx) {
      // After a push, so every scope has a commitment: each condition below holds if the market reads
      // the entry (the commitment itself, a piece of it, anything at all), and none may.
      const { user, claims } = await userWithPushedClaims(ctx);
      const tag = ctx.unique('secret');
      const cases: [string, Leaf][] = [];
      for (const [i, [scope, values]] of Object.entries(claims ?? {}).entries()) {
        const commitment = values[commitmentKeyFor(scope)];
        if (typeof commitment !== 'string') continue;
        for (const key of new Set([commitmentKeyFor(scope), `${scope}_commitment`, `${scope}:commitment`])) {
          const c: Claim = { scope, key, value: commitment };
          cases.push(
            [`${i}-${key}-eq`, leaf(c, 'EQUALITY_CONDITION', commitment)],
            [`${i}-${key}-contain`, leaf(c, 'CONTAIN_CONDITION', commitment.slice(0, 4))],
            [
              `${i}-${key}-contain-unscoped`,
              { kind: 'CONTAIN_CONDITION', claim: key, value: commitment.slice(0, 4) },
            ],
            [`${i}-${key}-descriptor`, { kind: 'CONTAIN_CONDITION', claim: { name: key, scope }, value: '' }],
          );
        }
      }
      if (cases.length === 0)
        return ctx.notExercised(
          'stored-commitments',
          'the market shows no claims with their commitments (no "claims" in GET /demo-user, no storedClaims option), so no condition could name one',
        );
      const offers = cases.map(([slug, condition]) => ({
        code: `${tag}-${slug}`,
        conditions: [condition],
        required_custom_scopes: [],
      }));
      const results = await rank(ctx, user, offers);
      const expected: Record<string, undefined> = {};
      const why: Record<string, string> = {};
      for (const [slug, condition] of cases) {
        expected[`${tag}-${slug}`] = undefined;
        why[`${tag}-${slug}`] =
          `${JSON.stringify(condition)}: a condition on a commitment entry, the scope's secret`;
      }
      expectRanks(results, expected, why);
    },
  },
  {
    id: 'offers.filter.condition-kinds',
    title:
      'All eight condition kinds hold or fail as WIRE §7 says, at and past each bound of a range, numbers compared as numbers (digit strings too, other number-like text as text)',
    modes: DATA_SHARING_ONLY,
    spec: 'WIRE §7',
    rules: ['R-OFFER-05', 'R-OFFER-06', 'R-OFFER-07', 'R-OFFER-08', 'R-OFFER-09'],
    async run(ctx) {
      const { user, num, str } = await subjectFor(ctx);
      const n = num.n;
      // Fewer digits than n: smaller as a number, larger as text ("999" > "1200"), so text comparison fails.
      const shorter = n >= 10 ? 10 ** (String(n).length - 1) - 1 : 0;
      const tag = ctx.unique('kinds');
      const absent = ctx.unique('no-such-claim');
      const cases: [string, Leaf, boolean][] = [
        ['eq-num', leaf(num, 'EQUALITY_CONDITION', n), true],
        ['eq-digits', leaf(num, 'EQUALITY_CONDITION', String(n)), true],
        ['eq-text', leaf(str, 'EQUALITY_CONDITION', str.s), true],
        ['eq-text-miss', leaf(str, 'EQUALITY_CONDITION', `${str.s}-not`), false],
        // Only digit strings compare as numbers (R-OFFER-09): leading zeros are still n, while text a
        // number parser (JavaScript's Number, Python's float, Go's ParseFloat) reads as n but that is
        // no digit string compares as text, and text is not n.
        ['eq-leading-zeros', leaf(num, 'EQUALITY_CONDITION', `00${n}`), true],
        // A boolean is a value too (R-OFFER-06): refusing it is no malformed condition's 400.
        ...(str.s === 'true'
          ? []
          : [['eq-boolean', leaf(str, 'EQUALITY_CONDITION', true), false] as [string, Leaf, boolean]]),
        // A claim the user lacks holds no condition, whatever text a missing value prints as
        // (JavaScript's "undefined", "null", Python's "None", Go's "<nil>", the empty string).
        ...MISSING_TEXTS.flatMap((text, i): [string, Leaf, boolean][] => [
          [`eq-absent-claim-${i}`, { ...leaf(num, 'EQUALITY_CONDITION', text), claim: absent }, false],
          [`contain-absent-claim-${i}`, { ...leaf(num, 'CONTAIN_CONDITION', text), claim: absent }, false],
        ]),
        ...notDigitStrings(n).map((text, i): [string, Leaf, boolean] => [
          `eq-number-like-${i}`,
          leaf(num, 'EQUALITY_CONDITION', text),
          false,
        ]),
        ['gt', leaf(num, 'LARGER_THAN_CONDITION', shorter), n > shorter],
        ['gt-digits', leaf(num, 'LARGER_THAN_CONDITION', String(shorter)), n > shorter],
        ['gt-miss', leaf(num, 'LARGER_THAN_CONDITION', n), false],
        ['gte', leaf(num, 'LARGER_THAN_OR_EQUAL_CONDITION', n), true],
        ['gte-miss', leaf(num, 'LARGER_THAN_OR_EQUAL_CONDITION', n + 1), false],
        ['lt', leaf(num, 'LESS_THAN_CONDITION', n * 10 + 1), true],
        ['lt-miss', leaf(num, 'LESS_THAN_CONDITION', n), false],
        ['lte', leaf(num, 'LESS_THAN_OR_EQUAL_CONDITION', n), true],
        ['lte-miss', leaf(num, 'LESS_THAN_OR_EQUAL_CONDITION', shorter), n <= shorter],
        ['contain', leaf(str, 'CONTAIN_CONDITION', str.s.slice(1)), true],
        ['contain-miss', leaf(str, 'CONTAIN_CONDITION', `${str.s}#`), false],
        [
          'range',
          { kind: 'IN_RANGE_CONDITION', claim: num.key, scope: num.scope, min: shorter, max: n * 10 + 1 },
          n >= shorter,
        ],
        [
          'range-upper',
          { kind: 'IN_RANGE_CONDITION', claim: num.key, scope: num.scope, value: n, upper: n },
          true,
        ],
        [
          'range-miss',
          { kind: 'IN_RANGE_CONDITION', claim: num.key, scope: num.scope, min: n + 1, max: n + 100 },
          false,
        ],
        // Both bounds inclusive in both forms: the claim on each bound holds, one past it fails.
        ...(
          [
            ['min', 'max'],
            ['value', 'upper'],
          ] as const
        ).flatMap(([lower, upper]): [string, Leaf, boolean][] => {
          const range = (low: number, high: number): Leaf => ({
            kind: 'IN_RANGE_CONDITION',
            claim: num.key,
            scope: num.scope,
            [lower]: low,
            [upper]: high,
          });
          return [
            [`range-${lower}-at-lower`, range(n, n * 10 + 1), true],
            [`range-${lower}-at-upper`, range(shorter, n), true],
            [`range-${lower}-above-upper`, range(shorter, n - 1), false],
            [`range-${lower}-below-lower`, range(n + 1, n * 10 + 1), false],
          ];
        }),
        [
          'and',
          {
            kind: 'AND_CONDITION',
            subconditions: [
              leaf(num, 'LARGER_THAN_OR_EQUAL_CONDITION', n),
              leaf(str, 'EQUALITY_CONDITION', str.s),
            ],
          },
          true,
        ],
        [
          'and-miss',
          {
            kind: 'AND_CONDITION',
            subconditions: [
              leaf(num, 'LARGER_THAN_OR_EQUAL_CONDITION', n),
              leaf(str, 'EQUALITY_CONDITION', `${str.s}-not`),
            ],
          },
          false,
        ],
        [
          'descriptor',
          { kind: 'EQUALITY_CONDITION', claim: { name: num.key, scope: num.scope }, value: n },
          true,
        ],
      ];
      const offers = cases.map(([slug, condition]) => ({
        code: `${tag}-${slug}`,
        conditions: [condition],
        required_custom_scopes: [],
      }));
      const results = await rank(ctx, user, offers);
      const expected: Record<string, number | undefined> = {};
      const why: Record<string, string> = {};
      for (const [slug, condition, holds] of cases) {
        expected[`${tag}-${slug}`] = holds ? 1 : undefined;
        why[`${tag}-${slug}`] =
          `${JSON.stringify(condition)} for ${user.id} whose ${num.key} is ${JSON.stringify(num.value)} and ${str.key} is ${JSON.stringify(str.value)}`;
      }
      expectRanks(results, expected, why);
    },
  },
  {
    id: 'offers.filter.levels-and-scopes',
    title:
      'Rank counts consecutive passing levels (unconditional: 1); required_custom_scopes; used_scopes and requested_scopes',
    modes: DATA_SHARING_ONLY,
    spec: 'WIRE §7',
    rules: ['R-OFFER-04', 'R-OFFER-06', 'R-OFFER-11', 'R-OFFER-14'],
    async run(ctx) {
      const { user, num, str, custom, claims } = await subjectFor(ctx);
      if (custom === undefined)
        return ctx.skip(
          'needs a demo user whose "claims" hold a custom scope (<organization_id>:<scope_key>)',
        );
      const missing = `${ctx.sandbox.organizationId}:${ctx.unique('no-such-scope')}`;
      const holds = leaf(num, 'LARGER_THAN_OR_EQUAL_CONDITION', num.n);
      const fails = leaf(num, 'LARGER_THAN_CONDITION', num.n);
      const tag = ctx.unique('levels');
      // Scopes the user holds that lack the claim, and the claim named without a scope; the unscoped
      // case only when the first scope holding the key is the subject's (else it would name another).
      const elsewhere = [...new Set(claims.map((c) => c.scope))].filter(
        (scope) => !claims.some((c) => c.scope === scope && c.key === num.key),
      );
      const unscopedHolds = claims.find((c) => c.key === num.key)?.scope === num.scope;
      const { scope: _scope, ...unscoped } = holds;
      const andFails = {
        kind: 'AND_CONDITION',
        subconditions: [holds, leaf(str, 'EQUALITY_CONDITION', `${str.s}-not`)],
      };
      const offers: [string, unknown[], string[][], number | undefined, string][] = [
        ['none', [], [], 1, 'no conditions: one unconditional level'],
        ['null', [null], [], 1, 'a null condition: unconditional'],
        ['empty', [{}], [], 1, 'an empty condition: unconditional'],
        ['two', [holds, holds], [], 2, 'two passing levels'],
        ['gap', [holds, fails, holds], [], 1, 'a failing second level caps the rank at 1'],
        ['first-fails', [fails, holds], [], undefined, 'a failing first level'],
        ['scope', [], [[custom]], 1, `requires ${custom}, which the user has`],
        ['scope-missing', [], [[missing]], undefined, `requires ${missing}, which nobody has`],
        // Names every object has: a user's claims held in a plain object "have" them (`scope in claims`).
        ...OBJECT_MEMBER_NAMES.map(
          ([name, why], i): [string, unknown[], string[][], number | undefined, string] => [
            `scope-object-member-${i}`,
            [],
            [[name]],
            undefined,
            `requires scope ${JSON.stringify(name)} (${why}), which no user holds`,
          ],
        ),
        ['scope-level-2', [holds, holds], [[], [missing]], 1, `second level requires ${missing}`],
        // A level needs ALL its scopes: one missing fails it, in either place of the list.
        ['scopes-last-missing', [], [[custom, missing]], undefined, `requires ${custom} and ${missing}`],
        ['scopes-first-missing', [], [[missing, custom]], undefined, `requires ${missing} and ${custom}`],
        // The condition's scope is where the claim is looked up (R-OFFER-06): the same claim and
        // value named in a scope the user lacks, and in each held scope without that claim, fail.
        ...[missing, ...elsewhere].flatMap(
          (scope, i): [string, unknown[], string[][], number | undefined, string][] => [
            [
              `claim-in-other-scope-${i}`,
              [{ ...holds, scope }],
              [],
              undefined,
              `${num.key} named in scope ${scope}, which does not hold it`,
            ],
            [
              `descriptor-in-other-scope-${i}`,
              [{ ...unscoped, claim: { name: num.key, scope } }],
              [],
              undefined,
              `${num.key} named by a descriptor in scope ${scope}, which does not hold it`,
            ],
          ],
        ),
        // A claim named without a scope that is a name every object has: no scope holds it, so it
        // names none (R-OFFER-14); its level fails, after a first level passing on the custom scope.
        ...OBJECT_MEMBER_NAMES.map(
          ([name, why], i): [string, unknown[], string[][], number | undefined, string] => [
            `claim-object-member-${i}`,
            [{}, { kind: 'EQUALITY_CONDITION', claim: name, value: 'x' }],
            [[custom]],
            1,
            `a second level on claim ${JSON.stringify(name)} (${why}), held in no scope`,
          ],
        ),
        // The scopes an AND's subconditions read are mentioned (requested) even on a failing level.
        ['and-scopes', [holds, andFails], [], 1, `a second level whose AND fails on ${str.key}`],
        // Named without a scope, the claim is found in the first scope holding it (R-OFFER-14).
        ...(unscopedHolds
          ? [
              ['unscoped', [unscoped], [], 1, `${num.key} named without a scope, held in ${num.scope}`] as [
                string,
                unknown[],
                string[][],
                number | undefined,
                string,
              ],
            ]
          : []),
      ];
      const results = await rank(
        ctx,
        user,
        offers.map(([slug, conditions, required]) => ({
          code: `${tag}-${slug}`,
          conditions,
          required_custom_scopes: required,
        })),
      );
      expectRanks(
        results,
        Object.fromEntries(offers.map(([slug, , , r]) => [`${tag}-${slug}`, r])),
        Object.fromEntries(offers.map(([slug, , , , why]) => [`${tag}-${slug}`, why])),
      );
      const result = results.get(`${tag}-scope-level-2`)!;
      const used = Array.isArray(result.used_scopes) ? result.used_scopes : [];
      const requested = Array.isArray(result.requested_scopes) ? result.requested_scopes : [];
      ensure(used.includes(num.scope) && !used.includes(missing), {
        expected: `used_scopes of the passing level to name ${num.scope} (read by its condition) and not ${missing} (a failing level's)`,
        actual: `evaluation_result ${JSON.stringify(result)}`,
      });
      ensure(requested.includes(num.scope) && requested.includes(missing), {
        expected: `requested_scopes to name every scope the offer mentions: ${num.scope} and ${missing}`,
        actual: `evaluation_result ${JSON.stringify(result)}`,
      });
      const anded = results.get(`${tag}-and-scopes`)!;
      const andRequested = Array.isArray(anded.requested_scopes) ? anded.requested_scopes : [];
      const andUsed = Array.isArray(anded.used_scopes) ? anded.used_scopes : [];
      ensure(
        andRequested.includes(num.scope) &&
          andRequested.includes(str.scope) &&
          (str.scope === num.scope || !andUsed.includes(str.scope)),
        {
          expected: `requested_scopes to name ${num.scope} and ${str.scope} (read inside the failing level's AND), used_scopes not ${str.scope}`,
          actual: `evaluation_result ${JSON.stringify(anded)}`,
        },
      );
      if (unscopedHolds) {
        const found = results.get(`${tag}-unscoped`)!;
        for (const list of ['used_scopes', 'requested_scopes'] as const) {
          const named = found[list];
          ensure(Array.isArray(named) && named.includes(num.scope), {
            expected: `${list} of an offer naming ${num.key} without a scope to name ${num.scope}, the first scope holding it (R-OFFER-14)`,
            actual: `evaluation_result ${JSON.stringify(found)}`,
          });
        }
      }
      for (const [i, [name]] of OBJECT_MEMBER_NAMES.entries()) {
        const named = results.get(`${tag}-claim-object-member-${i}`)!;
        const requested = Array.isArray(named.requested_scopes) ? named.requested_scopes : [];
        ensure(requested.length === 1 && requested[0] === custom, {
          expected: `requested_scopes of an offer requiring ${custom} and naming claim ${JSON.stringify(name)} without a scope to be [${JSON.stringify(custom)}]: no scope holds that claim, so it names none (R-OFFER-14)`,
          actual: `evaluation_result ${JSON.stringify(named)}`,
        });
      }
      // Both lists are sets (R-OFFER-04): a scope two levels read, or a level and a required scope, once.
      const repeated = [...results]
        .flatMap(([code, r]) =>
          (['used_scopes', 'requested_scopes'] as const).map((list) => [code, list, r[list]] as const),
        )
        .filter(([, , named]) => Array.isArray(named) && new Set(named).size !== named.length)
        .map(([code, list, named]) => `${code} ${list} ${JSON.stringify(named)}`);
      ensure(repeated.length === 0, {
        expected: 'used_scopes and requested_scopes to name each scope once (R-OFFER-04: both are sets)',
        actual: repeated.join('; '),
      });
      const scoped = results.get(`${tag}-scope`)!;
      ensure(Array.isArray(scoped.used_scopes) && scoped.used_scopes.includes(custom), {
        expected: `used_scopes of an offer passing on required scope ${custom} to name it`,
        actual: `evaluation_result ${JSON.stringify(scoped)}`,
      });
    },
  },
  {
    id: 'offers.filter.malformed-condition',
    title:
      'A malformed condition (unknown kind, any leaf kind without a claim or without a value, a range with one or no bound, an AND whose subconditions is absent, null, [] or holds no condition), at the top or inside an AND, is a 400 problem, not a 500',
    modes: DATA_SHARING_ONLY,
    spec: 'WIRE §7',
    rules: ['R-OFFER-06', 'R-OFFER-07', 'R-OFFER-10'],
    async run(ctx) {
      const [user] = await ctx.users();
      const localId = user?.id ?? 'someone';
      // Derived from R-OFFER-10's list, over every kind and both range forms: an unknown kind; each
      // leaf kind without a claim; each range bound alone, and none; an AND whose subconditions is
      // absent, null or []. (A market that reads a lone bound as open, or `all([])` as true, is caught.)
      const leaves: [string, unknown][] = [
        ['an unknown kind', { kind: 'SOUNDS_LIKE_CONDITION', claim: 'x', value: 1 }],
        // Only null and {} are "no condition"; any other JSON value that is no object has no kind
        // (the values Python's truthiness, or a lenient decoder, would read as "none").
        ...NOT_OBJECTS.map((value): [string, unknown] => [`${JSON.stringify(value)} as a condition`, value]),
        ...LEAF_CONDITION_KINDS.flatMap((kind): [string, unknown][] => [
          [`a ${kind} without a claim`, { kind, value: 1, min: 0, max: 2 }],
          // An empty name names no claim, as a key or as the prior art's descriptor (R-OFFER-06).
          [`a ${kind} whose claim is ""`, { kind, claim: '', value: 1, min: 0, max: 2 }],
          [
            `a ${kind} whose claim descriptor has no name`,
            { kind, claim: { scope: 'x' }, value: 1, min: 0, max: 2 },
          ],
        ]),
        // A leaf other than a range is { kind, claim, scope?, value } (R-OFFER-06): value is not optional.
        ...LEAF_CONDITION_KINDS.filter((kind) => kind !== 'IN_RANGE_CONDITION').map(
          (kind): [string, unknown] => [`a ${kind} without a value`, { kind, claim: 'x' }],
        ),
        ['a range without bounds', { kind: 'IN_RANGE_CONDITION', claim: 'x' }],
        ...RANGE_BOUNDS.map((bound): [string, unknown] => [
          `a range with only "${bound}"`,
          { kind: 'IN_RANGE_CONDITION', claim: 'x', [bound]: 1 },
        ]),
      ];
      const ands: [string, unknown][] = [
        ['an AND without subconditions', { kind: 'AND_CONDITION' }],
        ['an AND whose subconditions is null', { kind: 'AND_CONDITION', subconditions: null }],
        ['an AND whose subconditions is []', { kind: 'AND_CONDITION', subconditions: [] }],
        // null and {} mean "no condition" for a level only; inside an AND they are no condition kind.
        ['an AND holding null', { kind: 'AND_CONDITION', subconditions: [null] }],
        ['an AND holding {}', { kind: 'AND_CONDITION', subconditions: [{}] }],
      ];
      // Malformed anywhere in the tree is malformed: each case again inside an AND, beside a
      // well-formed leaf, so a market that validates only the top level is caught.
      const wellFormed = { kind: 'EQUALITY_CONDITION', claim: 'x', value: 1 };
      const malformed: [string, unknown][] = [...leaves, ...ands].flatMap(
        ([what, condition]): [string, unknown][] => [
          [what, condition],
          [`${what}, inside an AND`, { kind: 'AND_CONDITION', subconditions: [wellFormed, condition] }],
        ],
      );
      for (const [what, condition] of malformed) {
        const exchange = await callFilter(ctx, {
          local_id: localId,
          offers: [{ code: 'malformed', conditions: [condition], required_custom_scopes: [] }],
        });
        expectProblem(exchange, 400, { what: `for offer filtering with ${what}`, code: 'validation_failed' });
      }
    },
  },
  {
    id: 'offers.filter.either-id',
    title:
      "Offer filtering finds the user by either ID: local_id alone, credify_id alone, or both, decide on that user's claims",
    modes: DATA_SHARING_ONLY,
    spec: 'WIRE §7',
    rules: ['R-OFFER-01'],
    async run(ctx) {
      // The service sends both; R-OFFER-01 lets either name the user. A market that looks users up
      // by one column only finds no one for a request naming the other, and decides on no claims.
      const { user, credifyId, claims } = await userWithPushedClaims(ctx);
      const tag = ctx.unique('either');
      const offers = claimsOf(claims)
        .filter((c) => ['string', 'number', 'boolean'].includes(typeof c.value))
        .map((c, i) => ({
          code: `${tag}-${i}`,
          conditions: [leaf(c, 'EQUALITY_CONDITION', c.value)],
          required_custom_scopes: [],
        }));
      if (offers.length === 0) return ctx.skip(`needs claims of ${user.id} to build a condition on`);
      const wrong: string[] = [];
      for (const [what, ids] of [
        ['local_id alone', { local_id: user.id }],
        ['credify_id alone', { credify_id: credifyId }],
        ['both IDs', { local_id: user.id, credify_id: credifyId }],
      ] as const) {
        const exchange = await callFilter(ctx, { ...ids, offers });
        const body = exchange.json();
        const listed =
          isObject(body) && isObject(body.data) && Array.isArray(body.data.offers) ? body.data.offers : [];
        const held = new Set(listed.filter((o) => isObject(o)).map((o) => String(o.code)));
        const missed = offers.filter((o) => !held.has(o.code)).map((o) => o.code);
        if (exchange.status !== 200 || missed.length > 0)
          wrong.push(
            `${what}: HTTP ${exchange.status}, ${missed.length} of ${offers.length} offers on ${user.id}'s own claims left out`,
          );
      }
      ensure(wrong.length === 0, {
        expected: `every offer conditioned on ${user.id}'s own claims to hold, whichever ID names the user`,
        actual: wrong.join('\n    '),
        spec: 'WIRE §7',
      });
    },
  },
  {
    id: 'offers.filter.unknown-user',
    title:
      "Offer filtering for a user the market does not know (an unknown local_id, credify_id absent or null; an unknown credify_id) decides on no one's claims",
    modes: DATA_SHARING_ONLY,
    spec: 'WIRE §7',
    rules: ['R-OFFER-01'],
    async run(ctx) {
      // An offer per claim of every demo user, each holding for that user only: for a user the market
      // does not know, none may hold. A market that matches an absent ID with an unset column (a
      // user who never pushed has no credify_id) decides on that user's claims instead.
      const users = await ctx.users();
      const tag = ctx.unique('nobody');
      const offers: Record<string, unknown>[] = [];
      for (const [u, user] of users.entries())
        for (const [i, c] of claimsOf(user.claims ?? (await ctx.storedClaims(user))).entries())
          if (['string', 'number', 'boolean'].includes(typeof c.value))
            offers.push({
              code: `${tag}-${u}-${i}`,
              conditions: [leaf(c, 'EQUALITY_CONDITION', c.value)],
              required_custom_scopes: [],
            });
      if (offers.length === 0)
        return ctx.skip('needs a demo user whose "claims" hold a claim to build a condition on');
      const unknownLocal = ctx.unique('no-such-user');
      const bodies: [string, Record<string, unknown>][] = [
        ['an unknown local_id without credify_id', { local_id: unknownLocal }],
        ['an unknown local_id with credify_id null', { local_id: unknownLocal, credify_id: null }],
        ['an unknown credify_id without local_id', { credify_id: ctx.unique('crf_no_such_user') }],
        [
          'an unknown credify_id with local_id null',
          { credify_id: ctx.unique('crf_no_such_user'), local_id: null },
        ],
      ];
      const wrong: string[] = [];
      for (const [what, ids] of bodies) {
        const exchange = await callFilter(ctx, { ...ids, offers });
        if (exchange.status === 404) {
          expectProblem(exchange, 404, { what: `for offer filtering with ${what}`, code: 'user_not_found' });
          continue;
        }
        const body = exchange.json();
        const listed =
          isObject(body) && isObject(body.data) && Array.isArray(body.data.offers)
            ? body.data.offers
            : undefined;
        if (exchange.status !== 200 || listed === undefined) {
          wrong.push(
            `${what}: HTTP ${exchange.status}, neither 200 { "data": { "offers": [...] } } nor a 404 problem`,
          );
          continue;
        }
        const held = listed.filter((o) => isObject(o)).map((o) => String(o.code));
        if (held.length > 0)
          wrong.push(`${what}: offers ${held.join(', ')} held, decided on a demo user's claims`);
      }
      ensure(wrong.length === 0, {
        expected:
          "for a user the market does not know, no offer conditioned on a claim (a 200 that lists none, or the unknown user's 404)",
        actual: wrong.join('\n    '),
        spec: 'WIRE §7',
      });
    },
  },
  {
    id: 'offers.filter.id-members',
    title:
      'Each user ID of an offer filtering request is a text with something besides white space, or null: any other value is a 400, whether or not the other ID is valid',
    modes: DATA_SHARING_ONLY,
    spec: 'WIRE §7; docs/openapi FilterOffersRequest',
    rules: ['R-OFFER-01', 'R-ERR-04'],
    async run(ctx) {
      // The documents give both IDs the same shape (a string of at least one character holding a
      // non-space, or null). A market that checks only the ID it looks the user up by takes any value
      // for the other, and one that tests `=== ""` takes white space for an ID.
      const user = (await ctx.users())[0];
      if (user === undefined) return ctx.skip('needs a demo user (GET /v1/demo-user)');
      const valid: Record<string, string> = {
        local_id: user.id,
        credify_id: await ctx.sandbox.serviceUserId(user.id),
      };
      const wrongValues: [string, unknown][] = [
        ['a number', 42],
        ['true', true],
        ['false', false],
        ['a list', [valid.local_id]],
        ['an object', { id: valid.local_id }],
        ['an empty string', ''],
        ['a space', ' '],
        ['a tab and a line feed', '\t\n'],
      ];
      const offers = [{ code: 'any', conditions: [], required_custom_scopes: [] }];
      const accepted: string[] = [];
      for (const member of ['local_id', 'credify_id'] as const) {
        const other = member === 'local_id' ? 'credify_id' : 'local_id';
        for (const [what, value] of wrongValues)
          for (const [beside, otherId] of [
            [`beside a valid ${other}`, { [other]: valid[other] }],
            ['alone', {}],
          ] as const) {
            const exchange = await callFilter(ctx, { ...otherId, [member]: value, offers });
            if (exchange.status !== 400)
              accepted.push(
                `"${member}": ${JSON.stringify(value)} (${what}) ${beside}: HTTP ${exchange.status}`,
              );
            else
              expectProblem(exchange, 400, {
                what: `for offer filtering with "${member}" ${what} ${beside}`,
                code: 'validation_failed',
              });
          }
      }
      ensure(accepted.length === 0, {
        expected: 'a 400 problem for every ID that is neither a text holding a non-space nor null',
        actual: accepted.join('\n    '),
        spec: 'WIRE §7',
      });
    },
  },
  {
    id: 'offers.filter.neither-id',
    title:
      'Offer filtering without credify_id and local_id (each absent or null, in every combination) is a 400 problem',
    modes: DATA_SHARING_ONLY,
    spec: 'WIRE §7',
    rules: ['R-OFFER-01'],
    async run(ctx) {
      // null is the member left out (offers.filter.decided-shapes), so every combination of absent and
      // null names no user: a market testing one ID's key (`'credify_id' in body`) takes null for it.
      const offers = [{ code: 'any', conditions: [], required_custom_scopes: [] }];
      const combinations: [string, Record<string, null>][] = [
        ['without a user ID', {}],
        ['with "local_id": null', { local_id: null }],
        ['with "credify_id": null', { credify_id: null }],
        ['with both IDs null', { local_id: null, credify_id: null }],
      ];
      for (const [what, ids] of combinations)
        expectProblem(await callFilter(ctx, { ...ids, offers }), 400, {
          what: `for offer filtering ${what}`,
          code: 'validation_failed',
        });
    },
  },
];

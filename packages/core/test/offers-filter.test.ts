import { describe, expect, it } from 'vitest';
import type { ClaimObject } from '../src/claims/types.js';
import type { KitError } from '../src/errors.js';
import { MAX_CONDITION_DEPTH } from '../src/offers/conditions.js';
import { evaluateOffer } from '../src/offers/evaluate.js';
import { filterOffers, parseFilterOffersRequest } from '../src/offers/filter.js';
import { filterOffersResponseSchema } from '../src/offers/schemas.js';
import { kitErrorThrownBy } from '../src/testing.js';

const ORG = '40f9a736-0d97-409b-a0f7-d23ebca20bde';
const LOYALTY = `${ORG}:loyalty`;
const INCOME = `${ORG}:income`;
const MISSING = `${ORG}:credit`;
const claims: ClaimObject = {
  [LOYALTY]: { [`${ORG}:tier`]: 'gold', [`${ORG}:points`]: '1200' },
  [INCOME]: { [`${ORG}:monthly`]: '15000000' },
  phone: { phone_number: '+84901234567' },
  [`${ORG}:only-commitment`]: { [`${ORG}:only-commitment:commitment`]: 'x'.repeat(43) },
};

const isGold = { kind: 'EQUALITY_CONDITION', claim: `${ORG}:tier`, value: 'gold' };
const isSilver = { kind: 'EQUALITY_CONDITION', claim: `${ORG}:tier`, value: 'silver' };
const richEnough = { kind: 'LARGER_THAN_OR_EQUAL_CONDITION', claim: `${ORG}:monthly`, value: 10_000_000 };
const hasPhone = { kind: 'CONTAIN_CONDITION', claim: 'phone_number', value: '+84' };

function validationError(run: () => unknown): KitError {
  const error = kitErrorThrownBy(run, 'validation_failed');
  expect(error.status).toBe(400);
  return error;
}

describe('evaluateOffer rank', () => {
  it('counts every level when all pass', () => {
    const result = evaluateOffer({ code: 'a', conditions: [isGold, richEnough, hasPhone] }, claims);
    expect(result).toEqual({
      rank: 3,
      usedScopes: [LOYALTY, INCOME, 'phone'],
      requestedScopes: [LOYALTY, INCOME, 'phone'],
    });
  });

  it('stops at a failing middle level even if later levels pass', () => {
    const result = evaluateOffer({ code: 'a', conditions: [isGold, isSilver, hasPhone] }, claims);
    expect(result.rank).toBe(1);
    expect(result.usedScopes).toEqual([LOYALTY]);
    expect(result.requestedScopes).toEqual([LOYALTY, 'phone']);
  });

  it('is 0 when the first level fails', () => {
    expect(evaluateOffer({ code: 'a', conditions: [isSilver, isGold] }, claims)).toEqual({
      rank: 0,
      usedScopes: [],
      requestedScopes: [LOYALTY],
    });
  });

  it('stops at a level whose required scope is missing, though its condition holds', () => {
    const result = evaluateOffer(
      {
        code: 'a',
        conditions: [isGold, richEnough, hasPhone],
        required_custom_scopes: [[LOYALTY], [INCOME, MISSING], []],
      },
      claims,
    );
    expect(result.rank).toBe(1);
    expect(result.usedScopes).toEqual([LOYALTY]);
    expect(result.requestedScopes).toEqual([LOYALTY, INCOME, MISSING, 'phone']);
  });

  it('does not count a scope holding only its commitment as present', () => {
    const result = evaluateOffer(
      { code: 'a', conditions: [null], required_custom_scopes: [[`${ORG}:only-commitment`]] },
      claims,
    );
    expect(result.rank).toBe(0);
  });

  it('treats null and {} levels as unconditional and counts scope-only levels', () => {
    const result = evaluateOffer(
      { code: 'a', conditions: [null, {}], required_custom_scopes: [[LOYALTY], [INCOME], [MISSING]] },
      claims,
    );
    expect(result).toEqual({
      rank: 2,
      usedScopes: [LOYALTY, INCOME],
      requestedScopes: [LOYALTY, INCOME, MISSING],
    });
  });

  it('gives an offer without conditions one unconditional level', () => {
    expect(evaluateOffer({ code: 'a' }, claims)).toEqual({ rank: 1, usedScopes: [], requestedScopes: [] });
    expect(evaluateOffer({ code: 'a', conditions: [], required_custom_scopes: [] }, claims).rank).toBe(1);
  });

  it('ranks 0 against an empty claim object', () => {
    expect(evaluateOffer({ code: 'a', conditions: [isGold] }, {}).rank).toBe(0);
  });
});

describe('a claim or scope named like a member every object has', () => {
  it.each(['constructor', 'toString', '__proto__', 'hasOwnProperty'])(
    'claim %s named without a scope is held in no scope and names none (R-OFFER-14)',
    (name) => {
      const result = evaluateOffer(
        {
          code: 'a',
          conditions: [{}, { kind: 'EQUALITY_CONDITION', claim: name, value: 'x' }],
          required_custom_scopes: [[LOYALTY]],
        },
        claims,
      );
      expect(result).toEqual({ rank: 1, usedScopes: [LOYALTY], requestedScopes: [LOYALTY] });
    },
  );

  it.each(['constructor', 'toString', '__proto__'])('a required scope %s is one no user holds', (name) => {
    expect(evaluateOffer({ code: 'a', required_custom_scopes: [[name]] }, claims).rank).toBe(0);
  });
});

describe('filterOffers', () => {
  const request = {
    credify_id: 'ba3d1f1a-57eb-4fc2-a6aa-dfaf4a359512',
    offers: [
      { code: 'gold', campaign: { name: 'Gold', levels: ['l1', 'l2'] }, conditions: [isGold, richEnough] },
      { code: 'silver', conditions: [isSilver] },
      { code: 'partial', conditions: [hasPhone, isSilver], required_custom_scopes: [['phone'], []] },
    ],
  };

  it('keeps only offers with rank > 0, echoing them with evaluation_result', () => {
    const response = filterOffers(request, claims);
    expect(response).toEqual({
      data: {
        offers: [
          {
            code: 'gold',
            campaign: { name: 'Gold', levels: ['l1', 'l2'] },
            conditions: [isGold, richEnough],
            evaluation_result: {
              rank: 2,
              used_scopes: [LOYALTY, INCOME],
              requested_scopes: [LOYALTY, INCOME],
            },
          },
          {
            code: 'partial',
            conditions: [hasPhone, isSilver],
            required_custom_scopes: [['phone'], []],
            evaluation_result: { rank: 1, used_scopes: ['phone'], requested_scopes: ['phone', LOYALTY] },
          },
        ],
      },
    });
    expect(filterOffersResponseSchema.safeParse(response).success).toBe(true);
  });

  it('accepts local_id alone and a parsed request', () => {
    const parsed = parseFilterOffersRequest({ local_id: '2', offers: request.offers });
    expect(filterOffers(parsed, claims).data.offers.map((o) => o.code)).toEqual(['gold', 'partial']);
  });

  it('answers an empty list when nothing qualifies or no offers are sent', () => {
    expect(filterOffers({ local_id: '2', offers: [] }, claims)).toEqual({ data: { offers: [] } });
    expect(filterOffers({ local_id: '2', offers: request.offers }, {})).toEqual({ data: { offers: [] } });
  });

  it('fails a request without credify_id or local_id', () => {
    for (const body of [{ offers: [] }, { credify_id: '', local_id: null, offers: [] }]) {
      const error = validationError(() => filterOffers(body, claims));
      expect(error.errors).toContainEqual({
        path: 'credify_id',
        message: 'credify_id or local_id is required',
      });
    }
  });

  it('fails a body that is not an object', () => {
    const error = validationError(() => parseFilterOffersRequest('nope'));
    expect(error.errors?.[0]?.path).toBe('');
  });
});

describe('malformed conditions', () => {
  function errorsOf(conditions: unknown[], extra: Record<string, unknown> = {}) {
    const body = {
      local_id: '2',
      offers: [
        { code: 'ok', conditions: [isGold] },
        { code: 'bad', conditions, ...extra },
      ],
    };
    return validationError(() => filterOffers(body as never, claims)).errors ?? [];
  }

  it('names an unknown kind by its path', () => {
    const errors = errorsOf([isGold, { kind: 'OR_CONDITION', claim: 'x', value: 1 }]);
    expect(errors).toHaveLength(1);
    expect(errors[0]?.path).toBe('offers[1].conditions[1].kind');
    expect(errors[0]?.message).toContain('AND_CONDITION');
  });

  it('names a missing kind', () => {
    expect(errorsOf([{ claim: 'x', value: 1 }])[0]?.path).toBe('offers[1].conditions[0].kind');
  });

  it.each<[string, unknown, string]>([
    ['missing claim', { kind: 'EQUALITY_CONDITION', value: 1 }, 'offers[1].conditions[0].claim'],
    ['empty claim', { kind: 'EQUALITY_CONDITION', claim: '', value: 1 }, 'offers[1].conditions[0].claim'],
    [
      'object value',
      { kind: 'EQUALITY_CONDITION', claim: 'x', value: { a: 1 } },
      'offers[1].conditions[0].value',
    ],
    [
      'non-numeric bound',
      { kind: 'LARGER_THAN_CONDITION', claim: 'x', value: 'ten' },
      'offers[1].conditions[0].value',
    ],
    [
      'missing upper bound',
      { kind: 'IN_RANGE_CONDITION', claim: 'x', min: 1 },
      'offers[1].conditions[0].max',
    ],
    [
      'inverted range',
      { kind: 'IN_RANGE_CONDITION', claim: 'x', min: 10, max: '9' },
      'offers[1].conditions[0].max',
    ],
    ['empty AND', { kind: 'AND_CONDITION', subconditions: [] }, 'offers[1].conditions[0].subconditions'],
    [
      'bad nested kind',
      { kind: 'AND_CONDITION', subconditions: [isGold, { kind: 'NOPE' }] },
      'offers[1].conditions[0].subconditions[1].kind',
    ],
    ['a string level', 'EQUALITY_CONDITION', 'offers[1].conditions[0]'],
  ])('reports %s at its path', (_, condition, path) => {
    const errors = errorsOf([condition]);
    expect(errors.map((e) => e.path)).toContain(path);
    for (const error of errors) expect(error.message.length).toBeGreaterThan(0);
  });

  it('says what is wrong in words', () => {
    expect(errorsOf([{ kind: 'LESS_THAN_CONDITION', claim: 'x', value: 'ten' }])[0]?.message).toBe(
      'must be a number or a decimal string',
    );
    expect(errorsOf(['EQUALITY_CONDITION'])[0]?.message).toBe(
      'a condition must be an object, or null for none',
    );
    expect(errorsOf([[]])[0]?.message).toBe('a condition must be an object, or null for none');
  });

  it('reports malformed required_custom_scopes and a missing code', () => {
    const body = { local_id: '2', offers: [{ conditions: [], required_custom_scopes: [['ok', 3]] }] };
    const paths = (validationError(() => filterOffers(body as never, claims)).errors ?? []).map(
      (e) => e.path,
    );
    expect(paths.sort()).toEqual(['offers[0].code', 'offers[0].required_custom_scopes[0][1]']);
  });

  it('refuses conditions nested deeper than the limit without crashing', () => {
    let condition: Record<string, unknown> = isGold;
    for (let i = 0; i < 10_000; i++) condition = { kind: 'AND_CONDITION', subconditions: [condition] };
    const errors = errorsOf([condition]);
    expect(errors[0]?.path).toBe('offers[1].conditions[0]');
    expect(errors[0]?.message).toContain(String(MAX_CONDITION_DEPTH));
  });

  it('accepts nesting up to the limit', () => {
    let condition: Record<string, unknown> = isGold;
    for (let i = 1; i < MAX_CONDITION_DEPTH; i++)
      condition = { kind: 'AND_CONDITION', subconditions: [condition] };
    expect(evaluateOffer({ code: 'deep', conditions: [condition] }, claims).rank).toBe(1);
  });

  it('uses paths relative to the offer when one offer is evaluated alone', () => {
    const error = validationError(() =>
      evaluateOffer({ code: 'a', conditions: [isGold, { kind: 'X' }] } as never, claims),
    );
    expect(error.errors?.[0]?.path).toBe('conditions[1].kind');
    expect(error.toProblem()).toMatchObject({ status: 400, code: 'validation_failed' });
  });
});

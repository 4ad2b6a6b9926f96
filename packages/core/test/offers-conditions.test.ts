import { describe, expect, it } from 'vitest';
import type { ClaimObject } from '../src/claims/types.js';
import { compareNumeric } from '../src/offers/compare.js';
import { type Condition, conditionSchema } from '../src/offers/conditions.js';
import { evaluateCondition, evaluateOffer } from '../src/offers/evaluate.js';

const ORG = '40f9a736-0d97-409b-a0f7-d23ebca20bde';
const LOYALTY = `${ORG}:loyalty`;
const claims: ClaimObject = {
  [LOYALTY]: {
    [`${ORG}:tier`]: 'gold member',
    [`${ORG}:points`]: '1200',
    [`${ORG}:amount`]: 5000,
    [`${ORG}:badges`]: ['early', 'vip', 7],
    [`${ORG}:verified`]: 'true',
    [`${ORG}:big`]: '900719925474099312',
    [`${LOYALTY}:commitment`]: 'FtVwJhQjg9fnqS7fiNwsC0UG7-khbxBVuu7t_28TXuM',
  },
  phone: { phone_number: '+84901234567', phone_commitment: 'FtVwJhQjg9fnqS7fiNwsC0UG7-khbxBVuu7t_28TXuM' },
  profile: { given_name: 'An', family_name: 'Nguyen' },
};

function holds(condition: unknown): boolean {
  return evaluateCondition(conditionSchema.parse(condition), claims, new Set());
}
const claim = (key: string) => `${ORG}:${key}`;

describe('leaf conditions', () => {
  it.each<[string, Record<string, unknown>, boolean]>([
    ['EQUALITY string', { kind: 'EQUALITY_CONDITION', claim: claim('tier'), value: 'gold member' }, true],
    ['EQUALITY string differs', { kind: 'EQUALITY_CONDITION', claim: claim('tier'), value: 'gold' }, false],
    [
      'EQUALITY digit string vs number',
      { kind: 'EQUALITY_CONDITION', claim: claim('points'), value: 1200 },
      true,
    ],
    [
      'EQUALITY number vs decimal string',
      { kind: 'EQUALITY_CONDITION', claim: claim('amount'), value: '5000.00' },
      true,
    ],
    ['EQUALITY numeric differs', { kind: 'EQUALITY_CONDITION', claim: claim('points'), value: 1201 }, false],
    [
      'EQUALITY boolean vs "true"',
      { kind: 'EQUALITY_CONDITION', claim: claim('verified'), value: true },
      true,
    ],
    [
      'EQUALITY boolean vs "true" differs',
      { kind: 'EQUALITY_CONDITION', claim: claim('verified'), value: false },
      false,
    ],
    [
      'LARGER_THAN "1200" > 1000',
      { kind: 'LARGER_THAN_CONDITION', claim: claim('points'), value: 1000 },
      true,
    ],
    ['LARGER_THAN is strict', { kind: 'LARGER_THAN_CONDITION', claim: claim('points'), value: 1200 }, false],
    [
      'LARGER_THAN numeric not textual ("1200" > "900")',
      { kind: 'LARGER_THAN_CONDITION', claim: claim('points'), value: '900' },
      true,
    ],
    [
      'LARGER_THAN_OR_EQUAL equal',
      { kind: 'LARGER_THAN_OR_EQUAL_CONDITION', claim: claim('points'), value: '1200' },
      true,
    ],
    [
      'LARGER_THAN_OR_EQUAL below',
      { kind: 'LARGER_THAN_OR_EQUAL_CONDITION', claim: claim('points'), value: 1200.5 },
      false,
    ],
    ['LESS_THAN', { kind: 'LESS_THAN_CONDITION', claim: claim('amount'), value: 5000.01 }, true],
    ['LESS_THAN is strict', { kind: 'LESS_THAN_CONDITION', claim: claim('amount'), value: 5000 }, false],
    [
      'LESS_THAN_OR_EQUAL equal',
      { kind: 'LESS_THAN_OR_EQUAL_CONDITION', claim: claim('amount'), value: 5000 },
      true,
    ],
    [
      'LESS_THAN_OR_EQUAL above',
      { kind: 'LESS_THAN_OR_EQUAL_CONDITION', claim: claim('amount'), value: '4999' },
      false,
    ],
    [
      'LARGER_THAN on a non-numeric claim',
      { kind: 'LARGER_THAN_CONDITION', claim: claim('tier'), value: 0 },
      false,
    ],
    [
      'LESS_THAN on a non-numeric claim',
      { kind: 'LESS_THAN_CONDITION', claim: claim('tier'), value: 0 },
      false,
    ],
    [
      'large digit strings compare exactly',
      { kind: 'LARGER_THAN_CONDITION', claim: claim('big'), value: '900719925474099311' },
      true,
    ],
    ['CONTAIN substring', { kind: 'CONTAIN_CONDITION', claim: claim('tier'), value: 'gold' }, true],
    [
      'CONTAIN substring missing',
      { kind: 'CONTAIN_CONDITION', claim: claim('tier'), value: 'silver' },
      false,
    ],
    ['CONTAIN array element', { kind: 'CONTAIN_CONDITION', claim: claim('badges'), value: 'vip' }, true],
    [
      'CONTAIN array numeric element',
      { kind: 'CONTAIN_CONDITION', claim: claim('badges'), value: '7' },
      true,
    ],
    [
      'CONTAIN array element missing',
      { kind: 'CONTAIN_CONDITION', claim: claim('badges'), value: 'vi' },
      false,
    ],
    ['CONTAIN on a number', { kind: 'CONTAIN_CONDITION', claim: claim('amount'), value: '5' }, false],
    ['IN_RANGE inside', { kind: 'IN_RANGE_CONDITION', claim: claim('points'), min: 1000, max: 2000 }, true],
    [
      'IN_RANGE lower bound inclusive',
      { kind: 'IN_RANGE_CONDITION', claim: claim('points'), min: '1200', max: 2000 },
      true,
    ],
    [
      'IN_RANGE upper bound inclusive',
      { kind: 'IN_RANGE_CONDITION', claim: claim('amount'), min: 0, max: 5000 },
      true,
    ],
    ['IN_RANGE below', { kind: 'IN_RANGE_CONDITION', claim: claim('points'), min: 1201, max: 2000 }, false],
    ['IN_RANGE above', { kind: 'IN_RANGE_CONDITION', claim: claim('amount'), min: 0, max: 4999 }, false],
    [
      'IN_RANGE prior-art value/upper',
      { kind: 'IN_RANGE_CONDITION', claim: claim('amount'), value: 0, upper: 10000 },
      true,
    ],
    [
      'IN_RANGE prior-art value/upper outside',
      { kind: 'IN_RANGE_CONDITION', claim: claim('amount'), value: 6000, upper: 10000 },
      false,
    ],
    ['a missing claim is false', { kind: 'EQUALITY_CONDITION', claim: claim('nope'), value: 'x' }, false],
    [
      'standard claim without a scope',
      { kind: 'EQUALITY_CONDITION', claim: 'phone_number', value: '+84901234567' },
      true,
    ],
    [
      'claim with an explicit scope',
      { kind: 'EQUALITY_CONDITION', claim: 'given_name', scope: 'profile', value: 'An' },
      true,
    ],
    [
      'claim with the wrong explicit scope',
      { kind: 'EQUALITY_CONDITION', claim: claim('tier'), scope: 'phone', value: 'gold member' },
      false,
    ],
    [
      'prior-art claim descriptor',
      {
        kind: 'CONTAIN_CONDITION',
        value: 'gold',
        claim: { id: 'x', name: claim('tier'), value_type: 'TEXT', scope: { id: 'y', name: LOYALTY } },
        provider_id: ORG,
      },
      true,
    ],
    [
      'a commitment is never readable',
      { kind: 'CONTAIN_CONDITION', claim: `${LOYALTY}:commitment`, value: 'F' },
      false,
    ],
    [
      'a standard commitment is never readable',
      { kind: 'CONTAIN_CONDITION', claim: 'phone_commitment', scope: 'phone', value: 'F' },
      false,
    ],
  ])('%s', (_, condition, expected) => {
    expect(holds(condition)).toBe(expected);
  });
});

describe('AND_CONDITION', () => {
  const gold = { kind: 'CONTAIN_CONDITION', claim: claim('tier'), value: 'gold' };
  const rich = { kind: 'LARGER_THAN_CONDITION', claim: claim('points'), value: 1000 };
  const poor = { kind: 'LESS_THAN_CONDITION', claim: claim('points'), value: 1000 };

  it('holds when every subcondition holds', () => {
    expect(holds({ kind: 'AND_CONDITION', subconditions: [gold, rich] })).toBe(true);
  });

  it('fails when one subcondition fails', () => {
    expect(holds({ kind: 'AND_CONDITION', subconditions: [gold, poor] })).toBe(false);
  });

  it('nests, under either operand name', () => {
    expect(
      holds({ kind: 'AND_CONDITION', conditions: [gold, { kind: 'AND_CONDITION', subconditions: [rich] }] }),
    ).toBe(true);
    expect(
      holds({ kind: 'AND_CONDITION', conditions: [gold, { kind: 'AND_CONDITION', subconditions: [poor] }] }),
    ).toBe(false);
  });

  it('records the scopes it read', () => {
    const reads = new Set<string>();
    const condition = conditionSchema.parse({
      kind: 'AND_CONDITION',
      subconditions: [gold, { kind: 'EQUALITY_CONDITION', claim: 'phone_number', value: '+84901234567' }],
    }) as Condition;
    expect(evaluateCondition(condition, claims, reads)).toBe(true);
    expect([...reads]).toEqual([LOYALTY, 'phone']);
  });
});

describe('compareNumeric', () => {
  it.each<[unknown, unknown, -1 | 0 | 1 | undefined]>([
    ['1200', 1000, 1],
    ['900', '1200', -1],
    ['1200.50', '1200.5', 0],
    ['-3', 2, -1],
    ['-0.5', '-0.25', -1],
    [1e21, '999', 1],
    ['12a', 1, undefined],
    ['', 0, undefined],
    [' 12', 12, undefined],
    [true, 1, undefined],
    [null, 0, undefined],
  ])('compares %j with %j', (a, b, expected) => {
    expect(compareNumeric(a, b)).toBe(expected);
  });
});

describe('evaluateOffer on one offer', () => {
  it('evaluates a single-level offer', () => {
    expect(
      evaluateOffer(
        { code: 'o', conditions: [{ kind: 'EQUALITY_CONDITION', claim: 'given_name', value: 'An' }] },
        claims,
      ),
    ).toEqual({ rank: 1, usedScopes: ['profile'], requestedScopes: ['profile'] });
  });
});

/**
 * The cases certify derives from a request body's JSON Schema (support/domain-cases.ts): keywords
 * beside an `anyOf` hold in every branch, and a one-of requirement may be named by any of its members.
 */
import { describe, expect, it } from 'vitest';
import { domainValueChecks } from '../src/checks/domain-values.js';
import { ABSENT, domainCases } from '../src/support/domain-cases.js';

const EITHER = {
  type: 'object',
  properties: {
    a: { type: 'string', minLength: 1 },
    b: { type: 'string', minLength: 1 },
    n: { type: 'integer' },
  },
  anyOf: [{ required: ['a'] }, { required: ['b'] }],
};

describe('domain cases of a schema with members and a one-of requirement beside them', () => {
  it('walks the members (an anyOf of required lists used to hide every one of them)', () => {
    const labels = domainCases(EITHER, { a: 'x', n: 1 }).map((c) => c.label);
    expect(labels).toEqual(
      expect.arrayContaining([
        'a = 1 (a number in place of string)',
        'n = 1.5 (a fraction)',
        'a = "" (0 characters, under the minimum)',
      ]),
    );
  });

  it('leaving out the only member of the requirement is invalid; leaving out one of two present is valid', () => {
    const alone = domainCases(EITHER, { a: 'x' }).find((c) => c.kind === 'required');
    expect(alone).toMatchObject({ path: ['a'], set: [[['a'], ABSENT]], valid: false, alternatives: [['b']] });
    const both = domainCases(EITHER, { a: 'x', b: 'y' }).filter((c) => c.kind === 'required');
    expect(both.map((c) => [c.path, c.valid])).toEqual([
      [['a'], true],
      [['b'], true],
    ]);
  });

  it('lets a refusal name the other member of the requirement, and only for its members', () => {
    const cases = domainCases(EITHER, { a: 'x', n: 1 });
    expect(cases.find((c) => c.label.startsWith('a = null'))?.alternatives).toEqual([['b']]);
    expect(cases.find((c) => c.label.startsWith('n = 1.5'))?.alternatives).toBeUndefined();
  });
});

it('every market body route with a body rule gets domain checks, offer filtering included', () => {
  const slugs = new Set(domainValueChecks.map((c) => c.id.split('.')[1]));
  expect([...slugs].sort()).toEqual(['create', 'disburse', 'offer-filter', 'push-claims']);
  expect(domainValueChecks.find((c) => c.id === 'domain.offer-filter.offer-01')?.title).toMatch(/\d+ cases/);
});

/**
 * The cases certify derives from a request body's JSON Schema (support/domain-cases.ts): keywords
 * beside an `anyOf` hold in every branch, and a one-of requirement may be named by any of its members.
 */
import { describe, expect, it } from 'vitest';
import { domainValueChecks } from '../src/checks/domain-values.js';
import { WEBHOOK_EVENT_DOMAINS, webhookDomainCases } from '../src/checks/domain-webhook.js';
import { ABSENT, domainCases, requestSchema } from '../src/support/domain-cases.js';

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

describe('domain cases of the webhook events (checks/domain-webhook.ts)', () => {
  const casesOf = (slug: string) => {
    const event = WEBHOOK_EVENT_DOMAINS.find((e) => e.slug === slug);
    if (event === undefined) throw new Error(`no event domain ${slug}`);
    return webhookDomainCases(event).map(({ fixture, c }) => ({ type: fixture.type, ...c }));
  };

  it('come from the event schema of the market document: both ID forms, order_status bounded by R-SVC-14', () => {
    const labels = casesOf('order-status').map((c) => `${c.valid ? 'valid' : 'invalid'}: ${c.label}`);
    expect(labels).toEqual(
      expect.arrayContaining([
        'invalid: order_id = -1 (one below the minimum 0)',
        'valid: order_id = 9007199254740991 (the maximum 9007199254740991)',
        'invalid: order_id = 9007199254740992 (one above the maximum 9007199254740991)',
        'invalid: order_id = 90210.5 (a fraction)',
        'invalid: order_status = "" (0 characters, under the minimum)',
        'invalid: order_status = (left out) (a required member left out)',
      ]),
    );
    // R-SVC-10: a status of 64 characters, or of one, is none of the six, and acknowledged.
    const validStatuses = casesOf('order-status')
      .filter((c) => c.valid && c.path[0] === 'order_status')
      .map((c) => c.label);
    expect(new Set(validStatuses)).toEqual(
      new Set([
        'order_status = "P" (1 character, the minimum)',
        expect.stringMatching(/64 characters, the maximum/),
      ]),
    );
  });

  it('leave `type` alone (it chooses the schema; an unknown type is acknowledged, R-WH-06)', () => {
    for (const event of WEBHOOK_EVENT_DOMAINS)
      expect(webhookDomainCases(event).filter(({ c }) => c.path[0] === 'type')).toEqual([]);
  });

  it('cover every event type of the document', () => {
    const types = WEBHOOK_EVENT_DOMAINS.flatMap((e) => e.fixtures.map((f) => f.type));
    const schema = requestSchema('basic', 'receiveWebhook') as {
      oneOf: { properties: { type: { const?: string } } }[];
    };
    // The four known types; the last branch is any other type (acknowledged, R-WH-06).
    const known = schema.oneOf.map((b) => b.properties.type.const).filter((t) => t !== undefined);
    expect(known).toHaveLength(4);
    expect([...new Set(types)].sort()).toEqual(known.sort());
  });
});

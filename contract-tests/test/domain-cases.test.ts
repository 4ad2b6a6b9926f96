/**
 * The cases certify derives from a request body's JSON Schema (support/domain-cases.ts): keywords
 * beside an `anyOf` hold in every branch, a one-of requirement may be named by any of its members,
 * and each field's syntax (a date-time, a URL) and length (in characters) is judged as the kit's
 * own codecs judge it.
 */

import { wireOrder } from '@bnpl-kit/core/testing';
import { invoiceCodec, orderCreateRequestCodec } from '@bnpl-kit/core/wire';
import { describe, expect, it } from 'vitest';
import { balanceOrder, domainValueChecks } from '../src/checks/domain-values.js';
import { WEBHOOK_EVENT_DOMAINS, webhookDomainCases } from '../src/checks/domain-webhook.js';
import {
  ABSENT,
  applyCase,
  domainCases,
  getAt,
  requestRules,
  requestSchema,
  wirePath,
} from '../src/support/domain-cases.js';

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
    const alone = domainCases(EITHER, { a: 'x' }).filter((c) => c.kind === 'required');
    expect(alone).toMatchObject([
      { path: ['a'], set: [[['a'], ABSENT]], valid: false, alternatives: [['b']] },
    ]);
    const both = domainCases(EITHER, { a: 'x', b: 'y' }).filter((c) => c.kind === 'required');
    expect(both.map((c) => [c.path, c.valid])).toEqual([
      [['a'], true],
      [['b'], true],
    ]);
  });

  it('sends a required member under its camelCase name alone, still missing; the refusal may name either', () => {
    const schema = { type: 'object', properties: { local_id: { type: 'string' } }, required: ['local_id'] };
    const renamed = domainCases(schema, { local_id: 'u1' }).filter((c) => c.set.length === 2);
    expect(renamed).toMatchObject([
      {
        path: ['local_id'],
        set: [
          [['local_id'], ABSENT],
          [['localId'], 'u1'],
        ],
        valid: false,
        // A market refusing members the document does not name may name the misspelt one instead.
        alternatives: [['localId']],
      },
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
        expect.stringMatching(/64 characters, the maximum\)$/),
        // The maximum again in three-byte characters: a bound counted in UTF-8 bytes refuses it.
        expect.stringMatching(/64 characters, the maximum, 57 of them "\u1EC5" \(178 bytes of UTF-8\)/),
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

describe("the syntax and length cases agree with the kit's own codecs", () => {
  const INVOICE = {
    number: 'INV-1',
    url: 'https://shop.example/invoices/1',
    issued_at: '2026-01-15T09:30:00Z',
  };

  it('every issued_at and url form of the invoice (RFC 3339, absolute http(s) URL)', () => {
    const cases = domainCases(
      requestSchema('data-sharing', 'disburseOrder')!,
      { invoice: INVOICE },
      { rules: requestRules('data-sharing', 'disburseOrder') },
    ).filter((c) => c.kind === 'pattern' || c.label.includes('bytes of UTF-8'));
    const forms = cases.filter((c) => c.path[1] === 'issued_at');
    expect(forms.filter((c) => c.valid).length).toBeGreaterThanOrEqual(4);
    expect(forms.filter((c) => !c.valid).length).toBeGreaterThanOrEqual(12);
    const disagree = cases
      .filter((c) => c.path.length === 2)
      .filter((c) => {
        const invoice = (applyCase({ invoice: INVOICE }, c) as { invoice: unknown }).invoice;
        return invoiceCodec.schema.safeParse(invoice).success !== c.valid;
      })
      .map((c) => c.label);
    expect(disagree).toEqual([]);
  });

  it("every URL and text form of an order (characters, surrogates), each text's maximum in three-byte characters", () => {
    const base = wireOrder({ reference_id: 'fixture' });
    const rules = { rules: requestRules('basic', 'createOrder') };
    const cases = domainCases(requestSchema('basic', 'createOrder')!, base, rules).filter(
      (c) =>
        (c.kind === 'pattern' && /(_url|name|reference_id)$/.test(String(c.path.at(-1)))) ||
        c.label.includes('bytes of UTF-8'),
    );
    expect(cases.filter((c) => c.label.includes('bytes of UTF-8')).map((c) => c.path.join('.'))).toEqual(
      expect.arrayContaining(['reference_id', 'order_lines.0.name', 'order_lines.0.reference_id']),
    );
    const disagree = cases
      .filter((c) => orderCreateRequestCodec.schema.safeParse(applyCase(base, c)).success !== c.valid)
      .map((c) => c.label);
    expect(disagree).toEqual([]);
  });

  it('each member the document leaves optional, left out, is a valid case (the invoice, its url and issued_at)', () => {
    const cases = domainCases(requestSchema('data-sharing', 'disburseOrder')!, { invoice: INVOICE });
    const left = cases
      .filter((c) => c.set.length === 1 && c.set[0]![1] === ABSENT)
      .map((c) => [c.path.join('.'), c.valid]);
    expect(left).toEqual([
      ['invoice', true],
      ['invoice.number', false],
      ['invoice.url', true],
      ['invoice.issued_at', true],
    ]);
  });

  it("each required member present only under its camelCase name, and each text one character over its maximum as letters with combining accents, refused as the kit's codec refuses them", () => {
    const base = wireOrder({ reference_id: 'fixture' });
    const rules = { rules: requestRules('basic', 'createOrder') };
    const cases = domainCases(requestSchema('basic', 'createOrder')!, base, rules);
    const renamed = cases.filter((c) => c.label.includes("the member's name in"));
    const combining = cases.filter((c) => c.label.includes('U+0301'));
    expect(renamed.map((c) => wirePath(c.set[1]![0]))).toEqual(
      expect.arrayContaining(['referenceId', 'totalAmount', 'orderLines', 'order_lines[0].unitPrice']),
    );
    expect(renamed.map((c) => c.set[0])).toEqual(renamed.map((c) => [c.path, ABSENT]));
    expect(combining.map((c) => wirePath(c.path))).toEqual([
      'reference_id',
      'order_lines[0].name',
      'order_lines[0].reference_id',
    ]);
    for (const c of combining) {
      const text = [...String(getAt(applyCase(base, c), c.path))];
      expect(text).toHaveLength(256);
      // As graphemes (and after NFC), half as many: under the maximum for a market counting those.
      expect(text.join('').normalize('NFC').length).toBe(128);
    }
    const disagree = [...renamed, ...combining]
      .filter((c) => c.valid || orderCreateRequestCodec.schema.safeParse(applyCase(base, c)).success)
      .map((c) => c.label);
    expect(disagree).toEqual([]);
  });

  it('the body itself as every other JSON type is refused (an array, a string, a number, null)', () => {
    const body = domainCases(requestSchema('data-sharing', 'disburseOrder')!, { invoice: INVOICE })
      .filter((c) => c.path.length === 0)
      .map((c) => [c.label.replace(/ = .*\(/, ' ('), c.valid]);
    expect(body).toEqual(
      expect.arrayContaining([
        ['(body) (null in place of object)', false],
        ['(body) (an array around the value in place of object)', false],
        ['(body) (a string in place of object)', false],
      ]),
    );
    expect(applyCase({ invoice: INVOICE }, { set: [[[], null]] })).toBeNull();
  });

  it("every amount also sent with a trailing line feed (Python's and PHP's $ match before it), refused as the kit's codec refuses it", () => {
    const base = wireOrder({ reference_id: 'fixture' });
    const cases = domainCases(requestSchema('basic', 'createOrder')!, base, {
      rules: requestRules('basic', 'createOrder'),
    }).filter((c) => c.label.includes('a trailing line feed'));
    expect(cases.map((c) => wirePath(c.path))).toEqual(
      expect.arrayContaining([
        'total_amount.value',
        'order_lines[0].unit_price.value',
        'order_lines[0].subtotal.value',
      ]),
    );
    for (const c of cases) {
      expect(c.valid).toBe(false);
      expect(orderCreateRequestCodec.schema.safeParse(applyCase(base, c)).success, c.label).toBe(false);
    }
  });

  it("the order total's patterns, which sit in an allOf, get their neighbours and 0 (under them), as the kit's codec reads them", () => {
    const base = wireOrder({ reference_id: 'fixture' });
    const cases = domainCases(requestSchema('basic', 'createOrder')!, base, {
      rules: requestRules('basic', 'createOrder'),
    }).filter((c) => wirePath(c.path) === 'total_amount.value' && c.kind !== 'type' && c.kind !== 'required');
    const labels = cases.map((c) => c.label.replace(/^.*\((.*)\)$/, '$1'));
    expect(labels).toEqual(
      expect.arrayContaining([
        'the value with a leading space',
        'the value with a plus sign',
        'the value with full-width digits',
        '0, under the smallest the patterns allow',
        '2^31, past a signed 32-bit integer',
        "NaN, which Python's Decimal and float read",
        "a digit-group underscore, which Python's int and Ruby's Integer read",
      ]),
    );
    // Balanced as the check sends them (one line at the total's amount), then read by the codec.
    const disagree = cases.filter((c) => {
      const body = applyCase(base, c);
      balanceOrder(body, c);
      return orderCreateRequestCodec.schema.safeParse(body).success !== c.valid;
    });
    expect(disagree.map((c) => c.label)).toEqual([]);
  });

  it('every character at the edges of the ranges a text pattern forbids, and a lone surrogate where R-LINE-07 is listed', () => {
    const base = wireOrder({ reference_id: 'fixture' });
    const labels = domainCases(requestSchema('basic', 'createOrder')!, base, {
      rules: requestRules('basic', 'createOrder'),
    })
      .filter((c) => c.path.join('.') === 'order_lines.0.name' && c.kind === 'pattern')
      .map((c) => `${c.valid ? 'valid' : 'invalid'}: ${c.label.replace(/^.*\((.*)\)$/, '$1')}`);
    expect(labels).toEqual(
      expect.arrayContaining([
        // C0's last and a line feed, DEL (the second range's first), NEL and U+009F; the allowed ones beside them.
        'invalid: the value ending in U+001F, forbidden by the pattern',
        // The line feed as a pattern neighbour (the one the forbidden range also names, sent once).
        'invalid: the value with a trailing line feed',
        'invalid: the value ending in U+007F, forbidden by the pattern',
        'invalid: the value ending in U+0085, forbidden by the pattern',
        'invalid: the value ending in U+009F, forbidden by the pattern',
        'valid: the value ending in U+0020, next to the forbidden U+001F',
        'valid: the value ending in U+007E, next to the forbidden U+007F',
        'valid: the value ending in U+00A0, next to the forbidden U+009F',
        'invalid: the value ending in a lone high surrogate',
        'invalid: the value ending in a lone low surrogate',
        'valid: the value ending in a character outside the BMP, a surrogate pair',
      ]),
    );
    // The webhook's document lists no R-LINE-07: its texts get the pattern's characters, no surrogates.
    const event = WEBHOOK_EVENT_DOMAINS.find((e) => e.slug === 'offer-transaction')!;
    const webhook = webhookDomainCases(event).map(({ c }) => c.label);
    expect(webhook.some((l) => l.includes('U+009F'))).toBe(true);
    expect(webhook.some((l) => l.includes('surrogate'))).toBe(
      requestRules('basic', 'receiveWebhook').includes('R-LINE-07'),
    );
  });
});

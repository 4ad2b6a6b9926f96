/**
 * The documents say what the codecs enforce (issue 31): each pattern the schema metadata adds agrees
 * with the runtime check it describes, every status an operation lists has its problem codes, and
 * the rules JSON Schema cannot say are listed with IDs that protocol.md defines.
 */
import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { positiveAmountCodec } from '../src/models/money.js';
import { HTTP_URL_PATTERN, httpUrl, STORABLE_TEXT_PATTERN, unstorableReason } from '../src/models/text.js';
import { marketOpenApi } from '../src/openapi/market.js';
import { PROTOCOL_WORDS, RULES_BEYOND_SCHEMA } from '../src/openapi/rules.js';
import { serviceOpenApi } from '../src/openapi/service.js';
import { createOrderRequestCodec } from '../src/service/routes.js';

const storable = new RegExp(STORABLE_TEXT_PATTERN, 'u');
const url = new RegExp(HTTP_URL_PATTERN, 'u');
const protocol = readFileSync(new URL('../../../docs/protocol.md', import.meta.url), 'utf8');
const documents = (['basic', 'data-sharing'] as const).map((integrationMode) =>
  marketOpenApi({ integrationMode }),
);
type Schema = Record<string, unknown>;
const schemasOf = (i: number) => documents[i]!.components.schemas as Record<string, Schema>;

describe('schema metadata agrees with the runtime checks', () => {
  it('the storable-text pattern refuses exactly the characters the codec refuses, for every code point', () => {
    // Both checks judge each character alone, so every code point between two letters is the whole
    // domain: 1.1 million cases in a fraction of the CPU 2,000 random strings took (a loaded CI
    // machine once ran those past the test timeout).
    const disagreements: string[] = [];
    for (let codePoint = 0; codePoint <= 0x10ffff; codePoint++) {
      if (codePoint >= 0xd800 && codePoint <= 0xdfff) continue;
      const value = `a${String.fromCodePoint(codePoint)}b`;
      if (storable.test(value) !== (unstorableReason(value) === undefined))
        disagreements.push(`U+${codePoint.toString(16).toUpperCase().padStart(4, '0')}`);
    }
    expect(disagreements).toEqual([]);
    expect(storable.test('a\u0000b')).toBe(false);
    expect(storable.test('a\u0085b')).toBe(false);
    expect(storable.test('a\u00A0b')).toBe(true);
  });

  it('a lone surrogate, the one refusal the pattern cannot say, is refused by the codec (R-LINE-07)', () => {
    for (let unit = 0xd800; unit <= 0xdfff; unit++) {
      expect(unstorableReason(`a${String.fromCharCode(unit)}b`)).toMatch(/surrogate/);
    }
    expect(unstorableReason('a\u{1F600}b')).toBeUndefined();
  });

  it('every URL the codec accepts matches the documented pattern', () => {
    const schema = httpUrl();
    const candidates = fc.oneof(
      fc.webUrl(),
      fc.string(),
      fc.constantFrom('ftp://x', 'HTTP://A.B', 'http://', 'https://a b', '//x', 'http://x\u0000'),
    );
    fc.assert(
      fc.property(candidates, (value) => {
        if (schema.safeParse(value).success) expect(url.test(value)).toBe(true);
        if (!url.test(value)) expect(schema.safeParse(value).success).toBe(false);
      }),
      { numRuns: 1000, seed: 31 },
    );
    // 1,000 generated URLs are ≈ 2.4 s of CPU: more than unit packages' 30 s on an overloaded machine.
  }, 120_000);

  it('total_amount.value "0" is refused by the codec and by the documented pattern', () => {
    const total = schemasOf(0).OrderCreateRequest as {
      properties: { total_amount: { properties: { value: { allOf: { pattern: string }[] } } } };
    };
    const patterns = total.properties.total_amount.properties.value.allOf.map(
      (p) => new RegExp(p.pattern, 'u'),
    );
    for (const value of ['0', '00', '0.00', '-1', '1', '150000']) {
      const codec = positiveAmountCodec.schema.safeParse({ value, currency: 'VND' }).success;
      expect(
        patterns.every((p) => p.test(value)),
        value,
      ).toBe(codec);
    }
  });

  it('the service document says a total is > 0 too, from the same codec (a total of 0 had one refusal in a refine the document could not show)', () => {
    const schemas = serviceOpenApi().components.schemas as Record<string, Schema>;
    const total = schemas.CreateOrderRequest as {
      properties: { total_amount: { properties: { value: { allOf: { pattern: string }[] } } } };
    };
    const patterns = total.properties.total_amount.properties.value.allOf.map(
      (p) => new RegExp(p.pattern, 'u'),
    );
    expect(patterns.every((p) => p.test('0'))).toBe(false);
    expect(patterns.every((p) => p.test('1500'))).toBe(true);
    const zero = { value: '0', currency: 'VND' };
    const line = {
      name: 'x',
      reference_id: 'l1',
      image_url: 'https://a.example/x.png',
      product_url: 'https://a.example/x',
      quantity: 1,
      measment_unit: 'EACH',
      unit_price: zero,
      subtotal: zero,
    };
    const refused = createOrderRequestCodec.schema.safeParse({
      reference_id: 'r',
      total_amount: zero,
      order_lines: [line],
    });
    expect(refused.error?.issues.map((i) => [i.path.join('.'), i.message])).toContainEqual([
      'total_amount.value',
      'must be greater than 0',
    ]);
  });

  it('offer filtering needs credify_id or local_id, and documents the conditions', () => {
    const request = schemasOf(1).FilterOffersRequest as { anyOf: { required: string[] }[] };
    expect(request.anyOf.map((a) => a.required)).toEqual([['credify_id'], ['local_id']]);
    const condition = schemasOf(1).OfferCondition as { oneOf: unknown[] };
    expect(condition.oneOf.length).toBe(5);
    expect(JSON.stringify(schemasOf(1).FilterOffersRequest)).toContain('#/components/schemas/OfferCondition');
  });

  it('documents path ids with the router’s maximum length', () => {
    const get = documents[0]!.paths['/v1/orders/service/{id}']!.get!;
    expect(get.parameters?.[0]?.schema).toMatchObject({ maxLength: 255, pattern: STORABLE_TEXT_PATTERN });
  });
});

/** The statement of docs/protocol.md that `[id]` closes: from the previous tag or paragraph, as plain text. */
function statementOf(id: string): string {
  const tag = protocol.indexOf(`[${id}]`);
  const before = protocol.slice(0, tag);
  const previousTag = [...before.matchAll(/\[R-[A-Z]+-\d{2}\]/g)].at(-1);
  const start = Math.max(
    previousTag ? previousTag.index + previousTag[0].length : 0,
    before.lastIndexOf('\n\n'),
  );
  return plain(before.slice(start));
}
const plain = (text: string) => text.replace(/`|\*\*/g, '').replace(/\s+/g, ' ');

describe('the rules beyond the schema restate docs/protocol.md', () => {
  it('each restated rule quotes words of the protocol statement its ID closes', () => {
    expect(Object.keys(PROTOCOL_WORDS).sort()).toEqual(Object.keys(RULES_BEYOND_SCHEMA).sort());
    const missing = Object.entries(PROTOCOL_WORDS).filter(([id, words]) => !statementOf(id).includes(words));
    expect(missing).toEqual([]);
  });

  it('finds a statement that changed (the tie is not vacuous)', () => {
    expect(statementOf('R-LINE-05')).toContain('subtotal = quantity × unit_price');
    expect(statementOf('R-LINE-05')).not.toContain('subtotal = quantity + unit_price');
  });
});

describe('problems and rules of every operation', () => {
  it('Problem requires title and status; type defaults to about:blank (RFC 9457 §3.1.1)', () => {
    expect(schemasOf(0).Problem?.required).toEqual(['title', 'status']);
    expect(schemasOf(0).Problem?.properties).toMatchObject({ type: { default: 'about:blank' } });
  });

  it('every problem status lists its codes; 405 carries Allow; no catch-all default', () => {
    for (const document of documents)
      for (const item of Object.values(document.paths))
        for (const operation of Object.values(item)) {
          expect(operation!.responses.default).toBeUndefined();
          expect(operation!.responses['405']?.headers?.Allow).toBeDefined();
          for (const [status, response] of Object.entries(operation!.responses)) {
            if (Number(status) < 400) continue;
            const schema = response.content?.['application/problem+json']?.schema as {
              allOf: [unknown, { properties: { status: { const: number }; code: { enum: string[] } } }];
            };
            expect(schema.allOf[1].properties.status.const).toBe(Number(status));
            expect(schema.allOf[1].properties.code.enum.length).toBeGreaterThan(0);
          }
        }
  });

  it('lists the rules beyond the schema by IDs that protocol.md defines, in the description too', () => {
    for (const id of Object.keys(RULES_BEYOND_SCHEMA)) expect(protocol).toContain(`[${id}]`);
    const create = documents[0]!.paths['/v1/orders']!.post!;
    expect(create['x-bnpl-rules']?.map((r) => r.id)).toContain('R-ORDER-01');
    expect(create.description).toContain('[R-ORDER-01]');
    const pushClaims = documents[1]!.paths['/v1/push-claims']!.post!;
    expect(Object.keys(pushClaims.responses)).toContain('409');
    expect(Object.keys(documents[1]!.paths['/v1/offers/filter']!.post!.responses)).toContain('404');
  });
});

/**
 * The other contents certify sends under a reused reference_id (orders.create.idempotency-conflict,
 * R-EP-03) are derived from the create body's schema: each is a valid order the kit's codec takes,
 * each is other content than the request, and every member the document defines is varied unless
 * its domain holds one value. A member added to the document (or one the fixture lacks) fails here
 * until certify varies it.
 */
import { orderCreateRequestCodec } from '@bnpl-kit/core/wire';
import { describe, expect, it } from 'vitest';
import { conflictContents } from '../src/checks/orders-create.js';
import { canonicalJson } from '../src/support/canonical-json.js';
import { getAt, requestSchema, type WirePath, wirePath } from '../src/support/domain-cases.js';
import { sampleOrder } from '../src/support/orders.js';

type Schema = Record<string, unknown>;

/** Every leaf member the schema defines (array items as item 0), with its schema. */
function leaves(schema: Schema, path: WirePath = []): [WirePath, Schema][] {
  if (schema.type === 'array' && schema.items) return leaves(schema.items as Schema, [...path, 0]);
  const properties = schema.properties as Record<string, Schema> | undefined;
  if (properties === undefined) return [[path, schema]];
  return Object.entries(properties).flatMap(([key, member]) => leaves(member, [...path, key]));
}

const request = sampleOrder('ref-order-content-0001');
const contents = conflictContents(request);

describe('the other contents of a reused reference_id', () => {
  it('are valid orders under the same reference_id, each other content than the request', () => {
    expect(contents.length).toBeGreaterThan(10);
    for (const [what, body] of contents) {
      const parsed = orderCreateRequestCodec.schema.safeParse(body);
      expect(parsed.success, `${what}: ${JSON.stringify(parsed.error?.issues)}`).toBe(true);
      expect(body.reference_id, what).toBe(request.reference_id);
      expect(canonicalJson(body), what).not.toBe(canonicalJson(request));
    }
  });

  it('vary every member the document defines whose domain holds another value', () => {
    const schema = requestSchema('data-sharing', 'createOrder') as Schema;
    const unvaried = leaves(schema)
      .filter(([path]) => !(path.length === 1 && path[0] === 'reference_id'))
      // A one-value domain ("EACH", "VND") has no other valid content to send.
      .filter(([, node]) => !(Array.isArray(node.enum) && node.enum.length === 1) && !('const' in node))
      .filter(([path]) =>
        contents.every(
          ([, body]) => JSON.stringify(getAt(body, path)) === JSON.stringify(getAt(request, path)),
        ),
      )
      .map(([path]) => wirePath(path));
    expect(unvaried).toEqual([]);
    // The one-value members really are the ones left: the test would see a new enum value.
    const single = leaves(schema)
      .filter(([, node]) => Array.isArray(node.enum) && node.enum.length === 1)
      .map(([path]) => wirePath(path));
    expect(single).toEqual(expect.arrayContaining(['total_amount.currency', 'order_lines[0].measment_unit']));
  });

  it('include the texts a case-insensitive or space-trimming comparison holds as the sent ones', () => {
    const labels = contents.map(([what]) => what);
    expect(labels).toEqual(
      expect.arrayContaining([
        'order_lines[0].name = "RICE COOKER" (in upper case)',
        'order_lines[0].name = "Rice cooker " (with a trailing space)',
        'order_lines[0].reference_id = "SKU-1" (in upper case)',
      ]),
    );
  });
});

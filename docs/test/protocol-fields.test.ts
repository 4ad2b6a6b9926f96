/**
 * protocol.md §1's field table and the order create codec say the same (issue 31: the prose once
 * made the line URLs optional while the documents and the servers required them). The table is read
 * from the markdown and compared with the JSON Schema the OpenAPI documents derive from the codec.
 */
import { readFileSync } from 'node:fs';
import { marketOpenApi } from '@bnpl-kit/core/openapi';
import { describe, expect, it } from 'vitest';

const protocol = readFileSync(new URL('../protocol.md', import.meta.url), 'utf8');

interface ObjectSchema {
  properties: Record<string, { items?: { $ref?: string } & ObjectSchema } & Record<string, unknown>>;
  required?: string[];
}

/** `| \`order_lines[].name\` | yes | … |` rows of §1, as field → required. */
function tableOfSection1(): Map<string, boolean> {
  const section = protocol.slice(protocol.indexOf('## §1.'), protocol.indexOf('## §2.'));
  const rows = new Map<string, boolean>();
  for (const match of section.matchAll(/^\| `([a-z_[\].]+)` \| (yes|no) \|/gm))
    rows.set(match[1]!, match[2] === 'yes');
  return rows;
}

/** The codec's fields as the document has them, same naming: top level, then `order_lines[].x`. */
function fieldsOfCodec(): Map<string, boolean> {
  const schemas = marketOpenApi({ integrationMode: 'basic' }).components.schemas as unknown as Record<
    string,
    ObjectSchema
  >;
  const order = schemas.OrderCreateRequest!;
  const line = order.properties.order_lines!.items as ObjectSchema;
  const out = new Map<string, boolean>();
  for (const name of Object.keys(order.properties)) out.set(name, (order.required ?? []).includes(name));
  for (const name of Object.keys(line.properties))
    out.set(`order_lines[].${name}`, (line.required ?? []).includes(name));
  return out;
}

describe('protocol.md §1 field table', () => {
  it('lists every field of the order create codec, required as the codec requires it', () => {
    const table = tableOfSection1();
    expect(table.size).toBeGreaterThan(0);
    expect(Object.fromEntries(table)).toEqual(Object.fromEntries(fieldsOfCodec()));
  });
});

describe('protocol.md §5 updated_at (R-EP-26)', () => {
  it("states the date-time syntax the documents' updated_at schema carries", () => {
    const schemas = marketOpenApi({ integrationMode: 'basic' }).components.schemas as unknown as Record<
      string,
      ObjectSchema
    >;
    const updatedAt = schemas.OrderStatusInfo!.properties.updated_at as {
      description?: string;
      format?: string;
    };
    expect(updatedAt.format).toBe('date-time');
    // The description names the syntax after its colon; the protocol writes it with code spans.
    const syntax = updatedAt.description?.split(': ')[1];
    expect(syntax).toBeTruthy();
    const rule = protocol.slice(0, protocol.indexOf('[R-EP-26]'));
    const sentence = rule.slice(rule.lastIndexOf('`updated_at` is')).replaceAll('`', '');
    expect(sentence).toContain(syntax);
  });
});

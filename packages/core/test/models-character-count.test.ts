/**
 * Lengths count characters as JSON Schema's maxLength and the protocol do (code points): an emoji
 * or a rare CJK ideograph outside the BMP is one character, though JavaScript's `length` says two.
 * zod 4's string bounds count code points; this holds the kit to it (a validator that counts UTF-16
 * units would refuse 200 emoji the documents, and markets in Python or Go, accept).
 */
import { describe, expect, it } from 'vitest';
import { parseWebhookEvent } from '../src/models/events.js';
import { orderCreateRequestCodec } from '../src/models/order.js';
import { serviceOrderStatusSchema } from '../src/models/status.js';
import { parseWire } from '../src/models/wire.js';
import { wireOrder } from '../src/testing.js';

const ASTRAL = '\u{1F600}'; // 😀: two UTF-16 units, four UTF-8 bytes, one character
const CJK_EXT_B = '\u{20BB7}'; // 𠮷

/** The fixture order with its reference and its first line's members replaced. */
function create(reference: string, line: Record<string, unknown> = {}) {
  const order = wireOrder({ reference_id: reference }) as { order_lines: Record<string, unknown>[] };
  Object.assign(order.order_lines[0]!, line);
  return parseWire(orderCreateRequestCodec.schema, order);
}

describe('text bounds in characters, not UTF-16 units', () => {
  it('accepts 255 astral characters as a reference_id and a line name (510 UTF-16 units)', () => {
    const text = ASTRAL.repeat(255);
    expect(text.length).toBe(510);
    expect(create(text, { name: CJK_EXT_B.repeat(255) }).referenceId).toBe(text);
  });

  it('refuses 256 of them, naming the field', () => {
    expect(() => create(ASTRAL.repeat(256))).toThrow(/reference_id.*at most 255 characters/s);
  });

  it('bounds URLs and service statuses the same way', () => {
    const url = `https://shop.example/${ASTRAL.repeat(2048 - 'https://shop.example/'.length)}`;
    expect([...url].length).toBe(2048);
    expect(create('ref', { image_url: url }).orderLines[0]!.imageUrl).toBe(url);
    expect(() => create('ref', { image_url: `${url}x` })).toThrow(/image_url/);
    expect(serviceOrderStatusSchema.parse(ASTRAL.repeat(64))).toBe(ASTRAL.repeat(64));
    expect(serviceOrderStatusSchema.safeParse(ASTRAL.repeat(65)).success).toBe(false);
    const event = parseWebhookEvent(
      JSON.stringify({
        type: 'BNPL_ORDER_STATUS_UPDATED',
        order_id: 'ord_1',
        order_status: ASTRAL.repeat(64),
      }),
    );
    expect(event).toMatchObject({ orderStatus: ASTRAL.repeat(64) });
  });
});

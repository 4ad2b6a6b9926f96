/**
 * fast-check generators of hostile input for the HTTP fuzz suite: strings PostgreSQL cannot store
 * (NUL, lone surrogates), text a header cannot carry (non-Latin-1, CRLF), huge and deeply nested
 * values, and mutations of a valid order that put one of them at any place in it.
 */
import fc from 'fast-check';
import { orderRequest } from '../../src/testing/index.js';

/** Nothing a client should ever see: stacks, file paths, SQL, HTML. */
export const INTERNALS =
  /\n\s+at |node_modules|\.ts:\d|\/src\/|<html|<pre>|SELECT |INSERT |TypeError|Cannot /i;

const SPECIAL = [
  '\u0000',
  'a\u0000b',
  'x\udc00',
  '\ud800',
  'đơn-hàng-1',
  '注文',
  '🛒',
  'a\r\nX-Injected: 1',
  '\t',
  '\u0085',
  '%00',
  '../../etc/passwd',
  '<script>alert(1)</script>',
  "'; DROP TABLE bnpl_orders; --",
  '0',
  '',
  ' ',
];

/** Any string, biased towards the ones that broke the servers before. */
export const hostileString: fc.Arbitrary<string> = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom(...SPECIAL) },
  { weight: 2, arbitrary: fc.string({ unit: 'binary', maxLength: 40 }) },
  { weight: 1, arbitrary: fc.string({ unit: 'grapheme', maxLength: 300 }) },
  { weight: 1, arbitrary: fc.integer({ min: 256, max: 9000 }).map((n) => 'a'.repeat(n)) },
  {
    weight: 1,
    arbitrary: fc.integer({ min: 2040, max: 2100 }).map((n) => `https://shop.example/${'p'.repeat(n)}`),
  },
);

/** Any JSON-ish value, including hostile strings, numbers that are not safe, and deep nesting. */
export const hostileValue: fc.Arbitrary<unknown> = fc.oneof(
  hostileString,
  fc.constantFrom(null, true, 0, -1, 1.5, 1e308, Number.MAX_SAFE_INTEGER + 2, [], {}),
  fc.integer({ min: 50, max: 3000 }).map((depth) => {
    let v: unknown = 'deep';
    for (let i = 0; i < depth; i++) v = [v];
    return v;
  }),
  fc.jsonValue({ maxDepth: 3 }),
);

type Json = Record<string, unknown>;

/** Paths into a valid order body where a hostile value may go. */
const ORDER_PATHS: (string | number)[][] = [
  ['reference_id'],
  ['total_amount'],
  ['total_amount', 'value'],
  ['total_amount', 'currency'],
  ['order_lines'],
  ['order_lines', 0],
  ['order_lines', 0, 'name'],
  ['order_lines', 0, 'reference_id'],
  ['order_lines', 0, 'image_url'],
  ['order_lines', 0, 'product_url'],
  ['order_lines', 0, 'quantity'],
  ['order_lines', 0, 'measment_unit'],
  ['order_lines', 0, 'unit_price', 'value'],
  ['order_lines', 0, 'subtotal'],
  ['extra_member'],
];

/** Sets `value` at `path` in place; skipped when an earlier edit replaced a parent by a non-object. */
function setAt(target: Json, path: (string | number)[], value: unknown): void {
  let node: unknown = target;
  for (const key of path.slice(0, -1)) {
    if (typeof node !== 'object' || node === null) return;
    node = (node as Record<string | number, unknown>)[key];
  }
  if (typeof node === 'object' && node !== null)
    (node as Record<string | number, unknown>)[path.at(-1)!] = value;
}

/** A valid order (fresh reference_id) with up to three fields replaced by hostile values. */
export const hostileOrder: fc.Arbitrary<unknown> = fc
  .tuple(
    fc.uuid(),
    fc.array(fc.tuple(fc.constantFrom(...ORDER_PATHS), hostileValue), { minLength: 0, maxLength: 3 }),
  )
  .map(([id, edits]) => {
    const order = orderRequest(`fuzz-${id}`) as unknown as Json;
    for (const [path, value] of edits) setAt(order, path, value);
    return order;
  });

/** A path segment as it goes on the wire: UTF-8 percent-encoding, lone surrogates as bytes UTF-8 forbids. */
export function pathSegment(value: string): string {
  let out = '';
  for (const char of value) {
    const unit = char.charCodeAt(0);
    if (char.length === 1 && unit >= 0xd800 && unit <= 0xdfff) out += '%ED%A0%80';
    else out += encodeURIComponent(char);
  }
  return out;
}

/** A header value fetch can send (Latin-1, no CR/LF/NUL), possibly huge. */
export const hostileHeader: fc.Arbitrary<string> = fc.oneof(
  fc.string({ unit: fc.integer({ min: 0x20, max: 0xff }).map((c) => String.fromCharCode(c)), maxLength: 60 }),
  fc.integer({ min: 256, max: 12_000 }).map((n) => 'e'.repeat(n)),
  fc.constantFrom('Bearer', 'Bearer ', 'Basic x', 'application/json; charset=utf-16', 'EdDSA', 'ÿÿÿ'),
);

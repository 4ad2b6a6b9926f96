import canonicalize from 'canonicalize';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { canonicalJson } from '../src/claims/canonical.js';
import { orderCreateRequestCodec } from '../src/models/order.js';
import { orderFixture } from '../src/testing.js';

describe('canonicalJson writes what canonicalize writes', () => {
  it('for any JSON value', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        expect(canonicalJson(value)).toBe(canonicalize(value));
      }),
      { numRuns: 500 },
    );
  });

  it('for objects with any keys, in any order', () => {
    const key = fc.oneof(fc.string(), fc.string({ unit: 'binary' }), fc.nat().map(String));
    fc.assert(
      fc.property(
        fc.dictionary(
          key,
          fc.oneof(fc.string(), fc.integer(), fc.double({ noNaN: true, noDefaultInfinity: true })),
        ),
        (value) => {
          expect(canonicalJson(value)).toBe(canonicalize(value));
          const reversed = Object.fromEntries(Object.entries(value).reverse());
          expect(canonicalJson(reversed)).toBe(canonicalize(value));
        },
      ),
      { numRuns: 500 },
    );
  });

  it.each([
    ['integer-like keys', { 10: 'a', 2: 'b', b: 1, a: 2, '01': 3 }],
    ['keys beyond the BMP and lone surrogates', { '\u{1F600}': 1, '\uFFFF': 2, '\uD800': 3, é: 4, e: 5 }],
    [
      'more keys than the insertion sort takes',
      Object.fromEntries(Array.from({ length: 40 }, (_, i) => [`k${(i * 7) % 40}`, i])),
    ],
    ['undefined members', { a: undefined, b: 1 }],
    ['a missing array element', [1, undefined, 3]],
    ['a hole', Object.assign(new Array(3), { 0: 1, 2: 3 })],
    ['a date (toJSON)', { at: new Date(0) }],
    ['an own toJSON', { toJSON: () => ({ z: 1, a: 2 }) }],
    ['a class instance', { map: new Map([['a', 1]]) }],
    ['a null-prototype object', Object.assign(Object.create(null), { b: 1, a: [null, true, -0, 1e21] })],
    ['a symbol member', { s: Symbol('x'), a: 1 }],
    ['an order as its codec encodes it', orderCreateRequestCodec.encode(orderFixture())],
  ])('for %s', (_, value) => {
    expect(canonicalJson(value)).toBe(canonicalize(value));
  });

  it.each([
    ['NaN', { a: Number.NaN }],
    ['Infinity', [Number.POSITIVE_INFINITY]],
    ['a bare undefined', undefined],
  ])('refuses %s as before', (_, value) => {
    expect(() => canonicalJson(value)).toThrow(expect.objectContaining({ code: 'validation_failed' }));
  });
});

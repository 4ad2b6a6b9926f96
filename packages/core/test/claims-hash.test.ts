import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { canonicalJson, scopeHash } from '../src/claims/canonical.js';
import type { ScopeClaims } from '../src/claims/types.js';
import { KitError } from '../src/errors.js';

interface HashCase {
  scope_name: string;
  claims: ScopeClaims;
  scope_hash: string;
}
const vectors = JSON.parse(
  readFileSync(new URL('./fixtures/webhook-and-claims.json', import.meta.url), 'utf8'),
) as {
  claim_hash_cases: HashCase[];
};

describe('scopeHash', () => {
  it('has vectors to check', () => {
    expect(vectors.claim_hash_cases.length).toBeGreaterThan(0);
  });

  it.each(vectors.claim_hash_cases.map((c) => [c.scope_name, c] as const))(
    'matches the vector for %s',
    async (_, c) => {
      expect(await scopeHash(c.claims)).toBe(c.scope_hash);
    },
  );

  it('does not depend on key order', async () => {
    const c = vectors.claim_hash_cases[0]!;
    const reversed = Object.fromEntries(Object.entries(c.claims).reverse());
    expect(await scopeHash(reversed)).toBe(c.scope_hash);
  });

  it('changes when the commitment or any claim changes', async () => {
    const c = vectors.claim_hash_cases[1]!;
    expect(await scopeHash({ ...c.claims, phone_commitment: 'x' })).not.toBe(c.scope_hash);
    expect(await scopeHash({ ...c.claims, phone_number: '+84901234568' })).not.toBe(c.scope_hash);
  });

  it('is base64url of SHA-256 over the canonical text', async () => {
    const claims = { b: 1, a: 'é' };
    const expected = createHash('sha256').update(Buffer.from('{"a":"é","b":1}', 'utf8')).digest('base64url');
    expect(await scopeHash(claims)).toBe(expected);
    expect(expected).toHaveLength(43);
  });
});

describe('canonicalJson (RFC 8785)', () => {
  it('sorts keys by UTF-16 code units at every depth, arrays kept in order', () => {
    expect(canonicalJson({ b: [3, { z: 1, y: 2 }], a: null, A: true })).toBe(
      '{"A":true,"a":null,"b":[3,{"y":2,"z":1}]}',
    );
  });

  it('orders the RFC 8785 §3.2.3 sample keys as the RFC does (UTF-16, not code points)', () => {
    const sample = {
      '\u20ac': 'Euro',
      '\r': 'CR',
      '\ufb33': 'Hebrew',
      '1': 'One',
      '\u{1F600}': 'Smiley',
      '\u0080': 'Ctl',
      '\u00f6': 'o',
    };
    expect(canonicalJson(sample)).toBe(
      '{"\\r":"CR","1":"One","\u0080":"Ctl","\u00f6":"o","\u20ac":"Euro","\u{1F600}":"Smiley","\ufb33":"Hebrew"}',
    );
  });

  it('writes numbers the ECMAScript way', () => {
    expect(canonicalJson([1.0, 1e21, 1e-7, -0, 0.1, 123456789012345, 4.5e-10, 1e20])).toBe(
      '[1,1e+21,1e-7,0,0.1,123456789012345,4.5e-10,100000000000000000000]',
    );
  });

  it('keeps non-ASCII text literal and escapes only what JSON requires', () => {
    expect(canonicalJson({ s: 'Nguyễn\n"\\\u0001\u007f' })).toBe('{"s":"Nguyễn\\n\\"\\\\\\u0001\u007f"}');
  });

  it('has no insignificant whitespace and drops undefined members', () => {
    expect(canonicalJson({ a: [1, 2], b: { c: 'd' }, u: undefined })).toBe('{"a":[1,2],"b":{"c":"d"}}');
  });

  it.each([
    ['NaN', Number.NaN],
    ['Infinity', Number.POSITIVE_INFINITY],
    ['a bare undefined', undefined],
  ])('refuses %s with a validation error', (_, value) => {
    expect(() => canonicalJson(value)).toThrow(KitError);
    try {
      canonicalJson(value);
    } catch (error) {
      expect((error as KitError).code).toBe('validation_failed');
    }
  });
});

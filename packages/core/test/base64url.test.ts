import { describe, expect, it } from 'vitest';
import { base64UrlDecode, base64UrlEncode } from '../src/util/base64url.js';

describe('base64url', () => {
  it('round-trips every length up to 70 bytes', () => {
    for (let n = 0; n <= 70; n++) {
      const bytes = Uint8Array.from({ length: n }, (_, i) => (i * 37 + n) & 0xff);
      const text = base64UrlEncode(bytes);
      expect(text).toBe(Buffer.from(bytes).toString('base64url'));
      expect(base64UrlDecode(text)).toEqual(bytes);
    }
  });

  it.each([
    ['padding', 'YWI='],
    ['standard alphabet +', 'a+b_'],
    ['standard alphabet /', 'ab/c'],
    ['whitespace', 'YW I'],
    ['impossible length', 'YWJjZ'],
    ['non-zero trailing bits', 'YWJ'],
    ['non-ASCII', 'YWé'],
  ])('refuses %s', (_label, text) => {
    expect(base64UrlDecode(text)).toBeUndefined();
  });
});

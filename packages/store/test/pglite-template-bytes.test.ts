import { describe, expect, it } from 'vitest';
import { wholeArrayBuffer } from '../src/executor/pglite-template.js';

describe('a cached PGlite template read into an ArrayBuffer', () => {
  it('hands over a buffer that is all its own without copying it (a 40 MB copy at every open)', () => {
    const bytes = Buffer.allocUnsafeSlow(64 * 1024);
    bytes.fill(7);
    expect(wholeArrayBuffer(bytes)).toBe(bytes.buffer);
  });

  it("copies out exactly its bytes when they share Node's pool with others", () => {
    const pooled = Buffer.from('tar bytes');
    expect(pooled.byteLength).toBeLessThan(pooled.buffer.byteLength);
    const whole = wholeArrayBuffer(pooled);
    expect(whole).not.toBe(pooled.buffer);
    expect(Buffer.from(whole).toString()).toBe('tar bytes');
  });
});

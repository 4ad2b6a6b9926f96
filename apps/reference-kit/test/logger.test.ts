import { Secret } from '@bnpl-kit/core';
import { describe, expect, it } from 'vitest';
import { createLogger, sameSecret } from '../src/index.js';

describe('logging', () => {
  it('redacts credentials wherever they appear', () => {
    const lines: string[] = [];
    const logger = createLogger({ level: 'info', destination: { write: (l: string) => void lines.push(l) } });
    logger.info(
      {
        req: { headers: { authorization: 'Bearer mkt_secret', 'x-api-key': 'sk_secret', cookie: 'sid=1' } },
        token: 'tok_secret',
        user: { session_token: 'sess_secret' },
        config: { apiKey: 'sk_secret2', marketApiToken: new Secret('mkt_secret2') },
      },
      'hello',
    );
    const text = lines.join('');
    for (const secret of [
      'mkt_secret',
      'sk_secret',
      'sid=1',
      'tok_secret',
      'sess_secret',
      'sk_secret2',
      'mkt_secret2',
    ]) {
      expect(text).not.toContain(secret);
    }
    expect(text).toContain('[redacted]');
  });

  it('compares secrets in constant time, whatever their lengths', () => {
    expect(sameSecret('abc', 'abc')).toBe(true);
    expect(sameSecret('abc', 'abd')).toBe(false);
    expect(sameSecret('abc', 'abcdef')).toBe(false);
  });
});

import { describe, expect, it } from 'vitest';
import { bearerAuth, bearerToken, KitError, parseBearerToken, Secret, tokensEqual } from '../src/index.js';
import { kitErrorThrownBy } from '../src/testing.js';

const TOKEN = 'mkt_0123456789abcdef0123456789abcdef';
const request = (authorization?: string) =>
  new Request(
    'https://market.example/v1/orders',
    authorization === undefined ? {} : { headers: { authorization } },
  );

describe('bearer tokens', () => {
  it.each([
    ['Bearer abc', 'abc'],
    ['bearer abc', 'abc'],
    ['Bearer   abc  ', 'abc'],
    ['Basic abc', undefined],
    ['Bearer', undefined],
    ['Bearer a b', undefined],
    ['', undefined],
  ])('reads %j as %j', (header, token) => {
    expect(bearerToken(request(header))).toBe(token);
  });

  it('compares equal tokens, Secrets included, as equal and every near miss as different', async () => {
    expect(await tokensEqual(TOKEN, TOKEN)).toBe(true);
    expect(await tokensEqual(TOKEN, new Secret(TOKEN))).toBe(true);
    const nearMisses = [TOKEN.slice(0, -1), `${TOKEN}x`, TOKEN.toUpperCase(), '', ` ${TOKEN}`];
    for (let i = 0; i < TOKEN.length; i++) {
      nearMisses.push(TOKEN.slice(0, i) + (TOKEN[i] === 'a' ? 'b' : 'a') + TOKEN.slice(i + 1));
    }
    for (const miss of nearMisses) expect(await tokensEqual(miss, TOKEN)).toBe(false);
  });

  it('bearerAuth accepts the token and refuses anything else', async () => {
    const auth = bearerAuth(new Secret(TOKEN), { id: 'backend' });
    expect(await auth(request(`Bearer ${TOKEN}`))).toEqual({ id: 'backend' });
    for (const header of [
      undefined,
      '',
      'Bearer',
      `Bearer ${TOKEN}x`,
      `Basic ${TOKEN}`,
      `Bearer ${TOKEN.slice(1)}`,
    ]) {
      expect(await auth(request(header))).toBeNull();
    }
  });

  it.each([undefined, '', '   ', new Secret('')])(
    'bearerAuth refuses to start with the token %j',
    (token) => {
      const error = kitErrorThrownBy(() => bearerAuth(token), 'misconfigured');
      expect(error).toBeInstanceOf(KitError);
      expect(error.message).toContain('MARKET_API_TOKEN');
    },
  );
});

describe('parseBearerToken, the one reading of Authorization: Bearer for every package', () => {
  it.each([
    ['Bearer abc', 'abc'],
    ['bearer abc', 'abc'],
    ['BEARER  abc  ', 'abc'],
  ])('reads %j as %j', (header, token) => {
    expect(parseBearerToken(header)).toBe(token);
  });

  it.each([null, undefined, '', 'Bearer', 'Bearer ', 'Basic abc', 'Bearer a b', 'Bearer\tabc', 'Bearerabc'])(
    'finds no token in %j',
    (header) => {
      expect(parseBearerToken(header)).toBeUndefined();
    },
  );

  it('is what bearerToken reads from a request', () => {
    const request = new Request('https://m.example/', { headers: { authorization: 'bearer  t0k' } });
    expect(bearerToken(request)).toBe('t0k');
  });
});

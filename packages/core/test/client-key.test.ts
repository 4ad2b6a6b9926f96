import { describe, expect, it } from 'vitest';
import { clientKeyFromForwardedFor } from '../src/index.js';

/** A request as the Node bridge hands it over: the peer address behind its registry symbol. */
function request(forwardedFor?: string | string[], peer?: string): Request {
  const headers = new Headers();
  for (const value of [forwardedFor ?? []].flat()) headers.append('x-forwarded-for', value);
  const req = new Request('https://market.example/v1/offers/filter', { headers });
  if (peer) Object.assign(req, { [Symbol.for('bnpl-kit.client-address')]: () => peer });
  return req;
}

describe('clientKeyFromForwardedFor', () => {
  it('takes the entry appended by the outermost trusted proxy, ignoring what the client wrote', () => {
    const oneProxy = clientKeyFromForwardedFor({ trustedHops: 1 });
    // The client sent "X-Forwarded-For: 6.6.6.6, 7.7.7.7"; the proxy appended the real peer.
    expect(oneProxy(request('6.6.6.6, 7.7.7.7, 203.0.113.5', '10.0.0.2'))).toBe('203.0.113.5');
    const twoProxies = clientKeyFromForwardedFor({ trustedHops: 2 });
    expect(twoProxies(request('6.6.6.6, 203.0.113.5, 10.0.0.1', '10.0.0.2'))).toBe('203.0.113.5');
  });

  it('gives every spoofed leftmost value the same key as the honest request', () => {
    const key = clientKeyFromForwardedFor({ trustedHops: 1 });
    const spoofs = ['1.1.1.1', '2.2.2.2, 3.3.3.3', 'not-an-ip', ''].map((forged) =>
      key(request(forged ? `${forged}, 198.51.100.7` : '198.51.100.7')),
    );
    expect(new Set(spoofs)).toEqual(new Set(['198.51.100.7']));
  });

  it('reads repeated headers as one list and tolerates blanks and spaces', () => {
    const key = clientKeyFromForwardedFor({ trustedHops: 1 });
    expect(key(request(['6.6.6.6', ' 198.51.100.7 ']))).toBe('198.51.100.7');
    expect(key(request('198.51.100.7, ,'))).toBe('198.51.100.7');
  });

  it('falls back to the peer address without the header, with too few entries, or with no hops', () => {
    const key = clientKeyFromForwardedFor({ trustedHops: 2 });
    expect(key(request(undefined, '10.0.0.2'))).toBe('10.0.0.2');
    // One entry where two proxies should have written: the request skipped one, trust none.
    expect(key(request('6.6.6.6', '10.0.0.2'))).toBe('10.0.0.2');
    expect(clientKeyFromForwardedFor({ trustedHops: 0 })(request('6.6.6.6', '10.0.0.2'))).toBe('10.0.0.2');
    expect(key(request())).toBeUndefined();
  });

  it('refuses a trustedHops that is not a whole number ≥ 0', () => {
    for (const trustedHops of [-1, 1.5, Number.NaN]) {
      expect(() => clientKeyFromForwardedFor({ trustedHops })).toThrow(TypeError);
    }
  });
});

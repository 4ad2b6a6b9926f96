import { describe, expect, it } from 'vitest';
import {
  bnplPageUrl,
  createHostMessage,
  parseHostMessage,
  parsePageMessage,
  passportPageUrl,
} from '../src/protocol.js';

const session = 'a'.repeat(32);

describe('protocol', () => {
  it('reads a valid page message and keeps only the known payload fields', () => {
    const data = {
      source: 'bnpl-kit',
      version: 1,
      session,
      type: 'completed',
      payload: { status: 'approved', order_id: 'o', is_payment_completed: true, secret: 'x' },
      extra: true,
    };
    expect(parsePageMessage(data, session)).toEqual({
      source: 'bnpl-kit',
      version: 1,
      session,
      type: 'completed',
      payload: { status: 'approved', order_id: 'o', is_payment_completed: true },
    });
  });

  it('does not read host messages as page messages, nor the other way round', () => {
    const host = createHostMessage(session, 'push_claims_result', { ok: true });
    expect(parseHostMessage(host, session)).toEqual(host);
    expect(parsePageMessage(host, session)).toBeNull();
    expect(parseHostMessage({ ...host, type: 'close', payload: {} }, session)).toBeNull();
    expect(parseHostMessage({ ...host, payload: { ok: 'true' } }, session)).toBeNull();
    expect(
      parseHostMessage(createHostMessage(session, 'host_ready', { flow: 'checkout' as never }), session),
    ).toBeNull();
  });

  it('reads a resize to a whole number of pixels, and refuses a height that is not one a page can have', () => {
    const resize = (height: unknown) =>
      parsePageMessage(
        { source: 'bnpl-kit', version: 1, session, type: 'resize', payload: { height } },
        session,
      );
    expect(resize(312.2)?.payload).toEqual({ height: 313 });
    for (const height of [0, -5, Number.NaN, Number.POSITIVE_INFINITY, 10_001, '300', null]) {
      expect(resize(height), String(height)).toBeNull();
    }
  });

  it('ignores inherited keys as message types', () => {
    for (const type of ['toString', 'hasOwnProperty', '__proto__', 'constructor']) {
      expect(
        parsePageMessage({ source: 'bnpl-kit', version: 1, session, type, payload: {} }, session),
      ).toBeNull();
    }
  });

  it('builds the page URLs of the contract under an opaque base', () => {
    const bnpl = new URL(
      bnplPageUrl('http://localhost:3000/sandbox-service/?x=1#frag', {
        orderId: 'o 1',
        appName: 'Shop & Co',
        origin: 'http://localhost:5173',
        session,
      }),
    );
    expect(bnpl.pathname).toBe('/sandbox-service/pages/bnpl');
    expect(bnpl.hash).toBe('');
    expect([...bnpl.searchParams]).toEqual([
      ['order_id', 'o 1'],
      ['app_name', 'Shop & Co'],
      ['origin', 'http://localhost:5173'],
      ['session', session],
    ]);
    const passport = new URL(
      passportPageUrl('https://svc.example', {
        credifyId: 'c',
        marketId: 'm',
        productTypes: ['consumerBNPL', 'other'],
        appName: 'A',
        origin: 'https://shop.example',
        session,
      }),
    );
    expect(passport.pathname).toBe('/pages/passport');
    expect(passport.searchParams.get('product_types')).toBe('consumerBNPL,other');
    expect(passport.searchParams.get('market_id')).toBe('m');
  });
});

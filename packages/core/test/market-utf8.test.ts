/**
 * WIRE §2: a body that is not UTF-8 is 400 `invalid_json`, on every route that takes a body, the
 * webhook included (signed correctly, so only the encoding is wrong), and it changes nothing. The
 * routes come from the route table: a new route with a body fails here until it has a sample.
 */
import { describe, expect, it } from 'vitest';
import { MARKET_OPERATIONS, MARKET_ROUTES } from '../src/market/route-table.js';
import { makeMarket } from './market-support.js';
import {
  APPROVED_ORDER,
  PENDING_ORDER,
  ROUTE_SAMPLES,
  seedSampleState,
  sendSample,
} from './route-samples.js';

const BAD_SEQUENCES: Record<string, number[]> = {
  '0xFF': [0xff],
  'an overlong "/"': [0xc0, 0xaf],
  'a lone surrogate encoded as UTF-8': [0xed, 0xa0, 0x80],
};

const MARK = '@@bad@@';

/** The body's JSON with the bad bytes where `MARK` was. */
function withBadBytes(body: Record<string, unknown>, bad: number[]): Uint8Array {
  const [before, after] = JSON.stringify(body).split(MARK) as [string, string];
  const encoder = new TextEncoder();
  return new Uint8Array([...encoder.encode(before), ...bad, ...encoder.encode(after)]);
}

/** The places a bad byte goes: an extra field, and inside each top-level string field. */
function variants(body: Record<string, unknown>): [string, Record<string, unknown>][] {
  const out: [string, Record<string, unknown>][] = [['an extra field', { ...body, note: `a${MARK}b` }]];
  for (const [name, value] of Object.entries(body)) {
    if (typeof value === 'string') out.push([`"${name}"`, { ...body, [name]: `${value}${MARK}` }]);
  }
  return out;
}

/** Every route that takes a body: the table's POST routes (a GET never reads one). */
const withBody = MARKET_OPERATIONS.filter((name) => MARKET_ROUTES[name].method === 'POST');

describe('a body that is not UTF-8 is 400 invalid_json on every route that takes one', () => {
  it('has a sample for every route of the table that takes a body', () => {
    expect(withBody.length).toBeGreaterThan(0);
    expect(withBody.filter((name) => ROUTE_SAMPLES[name].body === undefined)).toEqual([]);
  });

  for (const operation of withBody) {
    it(`${operation}: answers 400 invalid_json and changes nothing`, async () => {
      const t = await makeMarket();
      await seedSampleState(t);
      const sample = ROUTE_SAMPLES[operation];
      for (const [where, body] of variants(sample.body!)) {
        for (const [what, bad] of Object.entries(BAD_SEQUENCES)) {
          const response = await sendSample(t, operation, withBadBytes(body, bad));
          const problem = await response.json();
          expect({ where, what, status: response.status, code: problem.code }).toEqual({
            where,
            what,
            status: 400,
            code: 'invalid_json',
          });
        }
      }
      expect((await t.store.findOrderById(PENDING_ORDER))?.status).toBe('PENDING');
      expect((await t.store.findOrderById(APPROVED_ORDER))?.status).toBe('APPROVED');
      expect(
        t.service.calls.filter((c) => c.op !== 'getSigningPublicKey' && c.op !== 'introspectToken'),
      ).toEqual([]);
      expect(t.hooks.webhooks).toEqual([]);
      expect(await t.store.findOrderByReferenceId('ref-sample')).toBeUndefined();
    });

    it(`${operation}: the same body with valid UTF-8 is not refused as invalid_json`, async () => {
      const t = await makeMarket();
      await seedSampleState(t);
      const sample = ROUTE_SAMPLES[operation];
      const [, body] = variants(sample.body!)[0]!;
      const response = await sendSample(t, operation, withBadBytes(body, [0xc3, 0xa9]));
      expect((await response.json()).code).not.toBe('invalid_json');
    });
  }
});

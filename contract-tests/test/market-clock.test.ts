/** The market's clock read from its Date header, said in a failing time-window check when it is off. */
import { describe, expect, it } from 'vitest';
import { describeMarketClock, marketClockOffsetSeconds } from '../src/support/market-clock.js';

const answer = (date: string | undefined) => ({ headers: new Headers(date === undefined ? {} : { date }) });
const at = Date.parse('2026-11-30T09:00:00.000Z');

describe('marketClockOffsetSeconds', () => {
  it('reads a clock in step as 0, and one 12 s behind or 30 s ahead as such', () => {
    // Sent at :00.200, answered at :00.400; the header truncates the market's :00.300 to :00.
    expect(marketClockOffsetSeconds(answer('Mon, 30 Nov 2026 09:00:00 GMT'), at + 200, at + 400)).toBe(0);
    expect(marketClockOffsetSeconds(answer('Mon, 30 Nov 2026 08:59:48 GMT'), at + 200, at + 400)).toBe(-12);
    expect(marketClockOffsetSeconds(answer('Mon, 30 Nov 2026 09:00:30 GMT'), at + 200, at + 400)).toBe(30);
  });

  it('knows nothing without a readable Date header', () => {
    expect(marketClockOffsetSeconds(answer(undefined), at, at)).toBeUndefined();
    expect(marketClockOffsetSeconds(answer('yesterday'), at, at)).toBeUndefined();
  });
});

describe('describeMarketClock', () => {
  it('says nothing below what a whole-second header can show, and names the way and size above it', () => {
    expect(describeMarketClock(undefined)).toBeUndefined();
    expect(describeMarketClock(1)).toBeUndefined();
    expect(describeMarketClock(-1)).toBeUndefined();
    expect(describeMarketClock(-12)).toMatch(/^the market's clock is about 12 s behind certify's/);
    expect(describeMarketClock(30)).toMatch(/about 30 s ahead of certify's .*NTP/);
  });
});

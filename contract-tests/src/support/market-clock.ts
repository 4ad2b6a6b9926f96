/**
 * The market's clock as its answers show it (the HTTP `Date` header, RFC 9110 §6.6.1), for the
 * checks whose verdict rests on time: a webhook window measured on certify's clock fails a market
 * whose clock is off by more than the margin, and the report should say that is the cause.
 */
import type { HttpExchange } from '../http.js';

/** The `Date` header has whole seconds; a smaller offset is within what it can show. */
const SHOWN_FROM_SECONDS = 2;

/**
 * How many seconds the market's clock is ahead of certify's (negative: behind), read from the
 * `Date` header of an answer to a request sent at `sentAt` and answered at `answeredAt` (epoch ms);
 * undefined without a readable header.
 */
export function marketClockOffsetSeconds(
  exchange: Pick<HttpExchange, 'headers'>,
  sentAt: number,
  answeredAt: number,
): number | undefined {
  const date = Date.parse(exchange.headers.get('date') ?? '');
  if (Number.isNaN(date)) return undefined;
  // The header truncates to the second: the market's time was within [date, date + 1 s).
  return Math.round((date + 500 - (sentAt + answeredAt) / 2) / 1000);
}

/** A sentence on the market's clock when it is off by enough to matter, else undefined. */
export function describeMarketClock(offsetSeconds: number | undefined): string | undefined {
  if (offsetSeconds === undefined || Math.abs(offsetSeconds) < SHOWN_FROM_SECONDS) return undefined;
  const way = offsetSeconds > 0 ? 'ahead of' : 'behind';
  return `the market's clock is about ${Math.abs(offsetSeconds)} s ${way} certify's (its Date header): the service's deliveries are timed by a correct clock, so set the market's clock right (NTP) before reading this as a window defect`;
}

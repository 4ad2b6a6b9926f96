/**
 * `X-Event-Timestamp` is exactly `YYYY-MM-DDTHH:MM:SSZ` (WIRE §4). Parsed by hand instead of
 * `Date.parse`, which accepts many other shapes (offsets, fractions, dates without times) and
 * would let two different header strings denote the same signed instant.
 */

const SHAPE = '0000-00-00T00:00:00Z';
const SEPARATORS = [4, 7, 10, 13, 16, 19];
const DAYS_IN_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

function digits(text: string, start: number, count: number): number {
  let value = 0;
  for (let i = start; i < start + count; i++) {
    const d = text.charCodeAt(i) - 48;
    if (d < 0 || d > 9) return -1;
    value = value * 10 + d;
  }
  return value;
}

/** Seconds since the epoch, or `undefined` when `text` is not a valid timestamp of that exact shape. */
export function parseWebhookTimestamp(text: string): number | undefined {
  if (text.length !== SHAPE.length) return undefined;
  for (const i of SEPARATORS) if (text[i] !== SHAPE[i]) return undefined;
  const year = digits(text, 0, 4);
  const month = digits(text, 5, 2);
  const day = digits(text, 8, 2);
  const hour = digits(text, 11, 2);
  const minute = digits(text, 14, 2);
  const second = digits(text, 17, 2);
  if (year < 0 || month < 1 || month > 12 || day < 1 || hour < 0 || minute < 0 || second < 0)
    return undefined;
  const leap = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
  const monthDays = month === 2 && leap ? 29 : DAYS_IN_MONTH[month - 1]!;
  // No leap second: `:60` is as suspicious here as `:99`.
  if (day > monthDays || hour > 23 || minute > 59 || second > 59) return undefined;
  return Date.UTC(year, month - 1, day, hour, minute, second) / 1000;
}

/** Formats an instant as a webhook timestamp, dropping the milliseconds (second precision). */
export function formatWebhookTimestamp(date: Date): string {
  if (Number.isNaN(date.getTime())) throw new RangeError('Invalid date');
  return `${date.toISOString().slice(0, 19)}Z`;
}

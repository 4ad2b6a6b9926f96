/**
 * Issue 34: a 20 s database outage wrote one error line per request. Repeats of a kind (level,
 * message, code) go out once per interval, then one line with the count; other kinds are not
 * hidden. Time is moved with fake timers, never waited for.
 */
import type { MarketLogger } from '@bnpl-kit/core';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { rateLimitedLogger } from '../src/rate-limited-logger.js';

function recording() {
  const lines: { level: string; msg: string | undefined; fields: Record<string, unknown> }[] = [];
  const at = (level: string) => (fields: Record<string, unknown>, msg?: string) =>
    void lines.push({ level, msg, fields });
  const logger: MarketLogger = { debug: at('debug'), info: at('info'), warn: at('warn'), error: at('error') };
  return { logger, lines };
}

describe('rateLimitedLogger', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('writes an outage’s 1,765 identical errors as one line, then one with the count', () => {
    const { logger, lines } = recording();
    const limited = rateLimitedLogger(logger, { intervalMs: 10_000 });
    for (let i = 0; i < 1_765; i++) {
      limited.error({ code: 'store_unavailable', reqId: `r${i}` }, 'The database is unavailable');
    }
    limited.warn({ code: 'signature_invalid' }, 'bad signature'); // another kind: not hidden
    expect(lines.map((l) => l.level)).toEqual(['error', 'warn']);
    vi.advanceTimersByTime(10_000);
    expect(lines).toHaveLength(3);
    expect(lines[2]).toMatchObject({
      level: 'error',
      fields: { code: 'store_unavailable', repeated: 1_764, reqId: 'r1764' },
    });
    expect(lines[2]?.msg).toContain('repeated 1764 times');
    // The next interval starts afresh: its first line goes out at once.
    limited.error({ code: 'store_unavailable' }, 'The database is unavailable');
    expect(lines).toHaveLength(4);
  });

  it('passes debug and info through, and writes no count line when nothing repeated', () => {
    const { logger, lines } = recording();
    const limited = rateLimitedLogger(logger, { intervalMs: 1_000 });
    limited.info({}, 'request');
    limited.info({}, 'request');
    limited.warn({ jobId: 'a' }, 'job failed; will retry');
    limited.warn({ jobId: 'b' }, 'job failed; will retry');
    vi.advanceTimersByTime(1_000);
    expect(lines.map((l) => `${l.level} ${l.fields.jobId ?? ''}`)).toEqual([
      'info ',
      'info ',
      'warn a',
      'warn b',
    ]);
  });
});

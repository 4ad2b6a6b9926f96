/**
 * Repeated warnings and errors once per interval, with a count. A database outage used to write
 * one error line per request (1,765 in 20 s) and a flood of forged webhooks one warning each; the
 * first line of a kind still goes out at once, its repeats within `intervalMs` are counted, and
 * when the interval ends one line says how many there were (`repeated`). A kind is the level, the
 * message, the `code` and the `jobId`, so different failures never hide each other. Debug and info pass through.
 */
import type { MarketLogger } from '@bnpl-kit/core';

export const DEFAULT_LOG_INTERVAL_MS = 10_000;
/** Kinds tracked at once; past it the oldest is forgotten (its next line simply goes out). */
const MAX_KINDS = 1_000;

interface Kind {
  suppressed: number;
  last: Record<string, unknown>;
  timer: NodeJS.Timeout;
}

export function rateLimitedLogger(logger: MarketLogger, options: { intervalMs?: number } = {}): MarketLogger {
  const intervalMs = options.intervalMs ?? DEFAULT_LOG_INTERVAL_MS;
  const kinds = new Map<string, Kind>();

  function limited(level: 'warn' | 'error') {
    return (fields: Record<string, unknown>, message?: string) => {
      const key = `${level}\n${message ?? ''}\n${String(fields.code ?? '')}\n${String(fields.jobId ?? '')}`;
      const seen = kinds.get(key);
      if (seen) {
        seen.suppressed++;
        seen.last = fields;
        return;
      }
      logger[level](fields, message);
      if (kinds.size >= MAX_KINDS) {
        const [oldestKey, oldest] = kinds.entries().next().value as [string, Kind];
        clearTimeout(oldest.timer);
        kinds.delete(oldestKey);
      }
      const kind: Kind = {
        suppressed: 0,
        last: fields,
        timer: setTimeout(() => {
          kinds.delete(key);
          if (kind.suppressed > 0) {
            logger[level](
              { ...kind.last, repeated: kind.suppressed, intervalMs },
              `${message ?? ''} (repeated ${kind.suppressed} times in ${intervalMs / 1000} s)`,
            );
          }
        }, intervalMs),
      };
      kind.timer.unref();
      kinds.set(key, kind);
    };
  }

  return {
    debug: (fields, message) => logger.debug(fields, message),
    info: (fields, message) => logger.info(fields, message),
    warn: limited('warn'),
    error: limited('error'),
  };
}

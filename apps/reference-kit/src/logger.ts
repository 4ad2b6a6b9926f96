/**
 * Structured JSON logs with pino. Credentials are redacted by path wherever they could end up in a
 * log line (headers, tokens, keys); `Secret` values print as `[redacted]` by themselves.
 */
import { traceFields } from '@bnpl-kit/core';
import { type DestinationStream, type Logger, pino } from 'pino';

export const REDACTED_PATHS = [
  'authorization',
  'headers.authorization',
  'headers.cookie',
  'headers["x-api-key"]',
  'req.headers.authorization',
  'req.headers.cookie',
  'req.headers["x-api-key"]',
  '*.authorization',
  'token',
  '*.token',
  'accessToken',
  '*.accessToken',
  'access_token',
  '*.access_token',
  'sessionToken',
  '*.sessionToken',
  'session_token',
  '*.session_token',
  'apiKey',
  '*.apiKey',
  'signingKey',
  '*.signingKey',
  'password',
  '*.password',
];

export interface LoggerOptions {
  level: string;
  /** Where lines go; default stdout. Tests pass a stream to read them back. */
  destination?: DestinationStream;
  /** Fields on every line, e.g. `{ server: 'basic-server' }`. */
  base?: Record<string, unknown>;
}

export function createLogger(options: LoggerOptions): Logger {
  return pino(
    {
      level: options.level,
      base: { pid: process.pid, ...options.base },
      redact: { paths: REDACTED_PATHS, censor: '[redacted]' },
      timestamp: pino.stdTimeFunctions.isoTime,
      // trace_id / span_id of the active span (the request's), so a log line leads to its trace.
      mixin: () => traceFields(),
      formatters: { level: (label) => ({ level: label }) },
    },
    options.destination,
  );
}

/**
 * The worker's log lines carry the trace of the job they are about (`trace_id`, `span_id` of the
 * active span, as the market handler's do), so a log line and the job's span find each other.
 */
import { type MarketLogger, traceFields } from '@bnpl-kit/core';

export function withTraceIds(logger: MarketLogger): MarketLogger {
  const level =
    (write: MarketLogger['info']): MarketLogger['info'] =>
    (fields, message) => {
      const ids = traceFields();
      write(ids.trace_id === undefined ? fields : { ...fields, ...ids }, message);
    };
  return {
    debug: level(logger.debug.bind(logger)),
    info: level(logger.info.bind(logger)),
    warn: level(logger.warn.bind(logger)),
    error: level(logger.error.bind(logger)),
  };
}

/**
 * The kit's OpenTelemetry instrumentation, on `@opentelemetry/api` alone: without an SDK registered
 * by the application every call here is a no-op, and the hot path pays for little more than a
 * global lookup. The tracer and the instruments are made on first use from the global providers
 * and made again when the application registers another provider (the metrics API hands out no
 * proxy, and a proxy tracer keeps the first provider it saw).
 */
import {
  type Attributes,
  context,
  isSpanContextValid,
  type Meter,
  type MeterProvider,
  metrics,
  type Span,
  SpanStatusCode,
  type Tracer,
  type TracerProvider,
  trace,
} from '@opentelemetry/api';
import type { MarketLogger } from './logger.js';

/** The instrumentation scope of every span and instrument the kit makes. */
export const INSTRUMENTATION_NAME = '@bnpl-kit/core';

let tracerProvider: TracerProvider | undefined;
let tracer: Tracer | undefined;

/** The kit's tracer, made again when the application registers (or replaces) its provider. */
function kitTracer(): Tracer {
  const provider = trace.getTracerProvider();
  if (tracer === undefined || provider !== tracerProvider) {
    tracerProvider = provider;
    tracer = provider.getTracer(INSTRUMENTATION_NAME);
  }
  return tracer;
}

/** The kit's meter on the current global meter provider: for code built on the kit (the job worker). */
export function kitMeter(): Meter {
  return metrics.getMeter(INSTRUMENTATION_NAME);
}

/**
 * Per meter provider, what `make` builds from the kit's meter: instruments are created once per
 * provider, not once per call.
 */
export function instrumentsOf<T>(make: (meter: Meter) => T): () => T {
  let provider: MeterProvider | undefined;
  let made: T | undefined;
  return () => {
    const current = metrics.getMeterProvider();
    if (made === undefined || current !== provider) {
      provider = current;
      made = make(current.getMeter(INSTRUMENTATION_NAME));
    }
    return made;
  };
}

function endWithError(span: Span, error: unknown): void {
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code === 'string') span.setAttribute('error.type', code);
  if (error instanceof Error) span.recordException(error);
  span.setStatus({ code: SpanStatusCode.ERROR, message: error instanceof Error ? error.message : undefined });
  span.end();
}

/**
 * Runs `work` in a span named `name`, active for everything `work` calls (so service calls made
 * inside nest under it). A thrown error marks the span (`error.type` is a `KitError` code) and is
 * rethrown. With no SDK and no parent span this is one no-op span and a direct call.
 */
export function withSpan<T>(
  name: string,
  attributes: Attributes,
  work: (span: Span) => Promise<T>,
): Promise<T> {
  const span = kitTracer().startSpan(name, { attributes });
  // Nothing records it and no trace passes through it: no context to switch.
  if (!span.isRecording() && !isSpanContextValid(span.spanContext())) return work(span);
  return context.with(trace.setSpan(context.active(), span), () =>
    work(span).then(
      (result) => {
        span.end();
        return result;
      },
      (error: unknown) => {
        endWithError(span, error);
        throw error;
      },
    ),
  );
}

/** `{ trace_id, span_id }` of the active span, for log lines; empty when there is none. */
export function traceFields(): { trace_id?: string; span_id?: string } {
  const span = trace.getActiveSpan();
  if (span === undefined) return {};
  const { traceId, spanId } = span.spanContext();
  return isSpanContextValid(span.spanContext()) ? { trace_id: traceId, span_id: spanId } : {};
}

/**
 * The logger with `trace_id` / `span_id` added to every line written while a span is active: the
 * market handler's lines and the worker's, so a log line and its span find each other.
 */
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

/**
 * The reference servers' OpenTelemetry SDK: what `@bnpl-kit/core` instruments with the API alone
 * becomes real here. Metrics are read by a Prometheus exporter served at `/metrics` (no server of
 * its own) and, when `OTEL_EXPORTER_OTLP_ENDPOINT` is set, pushed over OTLP/HTTP with the traces.
 * Spans are always recorded, so log lines carry a trace ID even with no trace exporter. Set up
 * once per process: the OpenTelemetry globals hold one provider each.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { KitError, type Secret, bearerToken as tokenOf, tokensEqual } from '@bnpl-kit/core';
import { PROBLEM_CONTENT_TYPE } from '@bnpl-kit/core/wire';
import { context, metrics, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { OTLPMetricExporter } from '@opentelemetry/exporter-metrics-otlp-http';
import { PrometheusExporter } from '@opentelemetry/exporter-prometheus';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { MeterProvider, type MetricReader, PeriodicExportingMetricReader } from '@opentelemetry/sdk-metrics';
import { BasicTracerProvider, BatchSpanProcessor, type SpanProcessor } from '@opentelemetry/sdk-trace-base';

export const METRICS_PATH = '/metrics';

interface Telemetry {
  prometheus: PrometheusExporter;
}

let installed: Telemetry | undefined;

/** Registers the SDK the first time it is called; later calls (several servers in one process) share it. */
export function installTelemetry(env: Record<string, string | undefined>): Telemetry {
  if (installed) return installed;
  const otlp = Boolean(env.OTEL_EXPORTER_OTLP_ENDPOINT?.trim());
  const prometheus = new PrometheusExporter({ preventServerStart: true });
  const readers: MetricReader[] = [prometheus];
  if (otlp) readers.push(new PeriodicExportingMetricReader({ exporter: new OTLPMetricExporter() }));
  const spanProcessors: SpanProcessor[] = otlp ? [new BatchSpanProcessor(new OTLPTraceExporter())] : [];
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  trace.setGlobalTracerProvider(new BasicTracerProvider({ spanProcessors }));
  metrics.setGlobalMeterProvider(new MeterProvider({ readers }));
  installed = { prometheus };
  return installed;
}

export type MetricsRoute = (req: IncomingMessage, res: ServerResponse) => void;

/**
 * `GET /metrics` in the Prometheus text format. With `METRICS_TOKEN` it requires
 * `Authorization: Bearer <token>` (compared in constant time); production without one has no
 * metrics endpoint at all (undefined: the path is a 404).
 */
export function metricsRoute(
  telemetry: Telemetry,
  options: { production: boolean; token: Secret | undefined },
): MetricsRoute | undefined {
  const { token } = options;
  if (options.production && token === undefined) return undefined;
  return (req, res) => {
    const given = tokenOf(
      new Request('http://metrics.invalid/', { headers: { authorization: req.headers.authorization ?? '' } }),
    );
    const allowed =
      token === undefined
        ? Promise.resolve(true)
        : given === undefined
          ? Promise.resolve(false)
          : tokensEqual(given, token);
    void allowed.then((ok) => {
      if (ok) return telemetry.prometheus.getMetricsRequestHandler(req, res);
      const problem = new KitError(
        'unauthenticated',
        'GET /metrics needs Authorization: Bearer $METRICS_TOKEN',
      );
      res.writeHead(401, { 'content-type': PROBLEM_CONTENT_TYPE, 'www-authenticate': 'Bearer' });
      res.end(JSON.stringify(problem.toProblem()));
    });
  };
}

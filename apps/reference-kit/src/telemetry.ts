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
import { PrometheusExporter } from '@opentelemetry/exporter-prometheus';
import { MeterProvider, type MetricReader, PeriodicExportingMetricReader } from '@opentelemetry/sdk-metrics';
import { BasicTracerProvider, BatchSpanProcessor, type SpanProcessor } from '@opentelemetry/sdk-trace-base';

export const METRICS_PATH = '/metrics';

interface Telemetry {
  prometheus: PrometheusExporter;
}

let installed: Promise<Telemetry> | undefined;

/** Registers the SDK the first time it is called; later calls (several servers in one process) share it. */
export function installTelemetry(env: Record<string, string | undefined>): Promise<Telemetry> {
  installed ??= install(Boolean(env.OTEL_EXPORTER_OTLP_ENDPOINT?.trim()));
  return installed;
}

async function install(otlp: boolean): Promise<Telemetry> {
  const prometheus = new PrometheusExporter({ preventServerStart: true });
  const readers: MetricReader[] = [prometheus];
  const spanProcessors: SpanProcessor[] = [];
  if (otlp) {
    const exporters = await otlpExporters();
    readers.push(new PeriodicExportingMetricReader({ exporter: exporters.metrics }));
    spanProcessors.push(new BatchSpanProcessor(exporters.traces));
  }
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  trace.setGlobalTracerProvider(new BasicTracerProvider({ spanProcessors }));
  metrics.setGlobalMeterProvider(new MeterProvider({ readers }));
  return { prometheus };
}

/**
 * Loaded only when OTLP is configured: the two OTLP/HTTP exporters and what they import are about
 * 90 modules (transformer, exporter base, resources, the logs API), a third of the server's
 * OpenTelemetry, that a start without an endpoint would read and compile for nothing.
 */
async function otlpExporters() {
  const [metricsModule, traceModule] = await Promise.all([
    import('@opentelemetry/exporter-metrics-otlp-http'),
    import('@opentelemetry/exporter-trace-otlp-http'),
  ]);
  // Both are CommonJS: node hands their exports over as named exports and as `default`, the
  // start.mjs bundle (which makes each import a chunk of its own) as `default` only.
  const { OTLPMetricExporter } = commonJs(metricsModule);
  const { OTLPTraceExporter } = commonJs(traceModule);
  return { metrics: new OTLPMetricExporter(), traces: new OTLPTraceExporter() };
}

function commonJs<T extends object>(namespace: T): T {
  return (namespace as { default?: T }).default ?? namespace;
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

import { readFileSync } from 'node:fs';
import { context, metrics, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import {
  AggregationTemporality,
  type DataPoint,
  DataPointType,
  InMemoryMetricExporter,
  MeterProvider,
  PeriodicExportingMetricReader,
} from '@opentelemetry/sdk-metrics';
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  SimpleSpanProcessor,
} from '@opentelemetry/sdk-trace-base';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createServiceClient, KitError, traceFields, withSpan } from '../src/index.js';
import { METRIC_NAMES } from '../src/observability/metrics.js';
import { deliverWebhook, insertOrder, makeMarket, ORIGIN } from './market-support.js';

let spans: InMemorySpanExporter;
let exporter: InMemoryMetricExporter;
let reader: PeriodicExportingMetricReader;

beforeEach(() => {
  spans = new InMemorySpanExporter();
  const tracerProvider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(spans)] });
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  trace.setGlobalTracerProvider(tracerProvider);
  exporter = new InMemoryMetricExporter(AggregationTemporality.CUMULATIVE);
  // Exports only when collected below: the interval is far longer than any test.
  reader = new PeriodicExportingMetricReader({ exporter, exportIntervalMillis: 3_600_000 });
  metrics.setGlobalMeterProvider(new MeterProvider({ readers: [reader] }));
});

afterEach(async () => {
  await reader.shutdown();
  trace.disable();
  metrics.disable();
  context.disable();
});

/** Every data point of one metric, by its attributes. */
async function points(name: string): Promise<DataPoint<unknown>[]> {
  await reader.forceFlush();
  const found = exporter
    .getMetrics()
    .flatMap((r) => r.scopeMetrics)
    .flatMap((s) => s.metrics)
    .filter((m) => m.descriptor.name === name);
  return found.at(-1)?.dataPoints ?? [];
}

const statusEvent = (orderId: string, status: string) => ({
  type: 'BNPL_ORDER_STATUS_UPDATED',
  order_id: orderId,
  order_status: status,
});

describe('observability with an SDK registered', () => {
  it('spans every webhook (route, verify, apply nested) and counts its outcome by code', async () => {
    const t = await makeMarket();
    await insertOrder(t.store, 'o1', 'PENDING');
    const first = await deliverWebhook(t, statusEvent('o1', 'APPROVED'), { eventId: 'evt_1' });
    await deliverWebhook(t, statusEvent('o1', 'APPROVED'), { eventId: 'evt_1' });
    const forged = await t.market.handle(
      new Request(`${ORIGIN}/v1/webhook`, { method: 'POST', headers: { 'x-event-id': 'e' }, body: '{}' }),
    );
    expect([first.response.status, forged.status]).toEqual([200, 401]);

    const finished = spans.getFinishedSpans();
    const root = finished.find((s) => s.name === 'bnpl.market receiveWebhook');
    expect(root?.attributes['http.response.status_code']).toBe(200);
    const children = finished.filter((s) => s.parentSpanContext?.spanId === root?.spanContext().spanId);
    expect(children.map((s) => s.name).sort()).toEqual(['bnpl.webhook.apply', 'bnpl.webhook.verify']);

    const outcomes = await points(METRIC_NAMES.webhookOutcomes);
    const byOutcome = Object.fromEntries(outcomes.map((p) => [p.attributes['bnpl.outcome'], p.value]));
    expect(byOutcome).toEqual({ processed: 1, duplicate: 1, signature_missing_header: 1 });
    expect(outcomes.find((p) => p.attributes['bnpl.outcome'] === 'processed')?.attributes).toEqual({
      'bnpl.outcome': 'processed',
      'bnpl.event_type': 'BNPL_ORDER_STATUS_UPDATED',
    });
    const requests = await points(METRIC_NAMES.marketRequestDuration);
    expect(requests.map((p) => p.attributes)).toContainEqual({
      'bnpl.route': 'receiveWebhook',
      'http.response.status_code': 401,
    });
  });

  it('spans every service call and measures its duration and failures by code', async () => {
    const client = createServiceClient({
      baseUrl: 'https://service.example/api',
      apiKey: 'key',
      retries: 0,
      fetch: async () =>
        new Response('{"success":false}', { status: 503, headers: { 'content-type': 'application/json' } }),
    });
    const error = await client.getOrder('o1').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(KitError);
    const span = spans.getFinishedSpans().find((s) => s.name === 'bnpl.service getOrder');
    expect(span?.attributes['error.type']).toBe((error as KitError).code);
    const errors = await points(METRIC_NAMES.serviceCallErrors);
    expect(errors.map((p) => [p.attributes, p.value])).toEqual([
      [{ 'bnpl.operation': 'getOrder', 'error.type': (error as KitError).code }, 1],
    ]);
    const durations = await points(METRIC_NAMES.serviceCallDuration);
    expect(durations.map((p) => p.attributes)).toEqual([
      { 'bnpl.operation': 'getOrder', 'bnpl.outcome': (error as KitError).code },
    ]);
  });

  it('emits exactly the metrics of the README table, of the kind and with the attributes it lists', async () => {
    const t = await makeMarket();
    await insertOrder(t.store, 'o1', 'PENDING');
    await deliverWebhook(t, statusEvent('o1', 'APPROVED'), { eventId: 'evt_1' });
    const failing = createServiceClient({
      baseUrl: 'https://service.example/api',
      apiKey: 'key',
      retries: 0,
      fetch: async () => new Response('{}', { status: 503, headers: { 'content-type': 'application/json' } }),
    });
    await failing.getOrder('o1').catch(() => undefined);
    await reader.forceFlush();
    const emitted = exporter
      .getMetrics()
      .flatMap((r) => r.scopeMetrics)
      .filter((s) => s.scope.name === '@bnpl-kit/core')
      .flatMap((s) => s.metrics);
    const seen = new Map(
      emitted.map((m) => [
        m.descriptor.name,
        {
          kind: m.dataPointType === DataPointType.HISTOGRAM ? 'histogram' : 'counter',
          attributes: [...new Set(m.dataPoints.flatMap((p) => Object.keys(p.attributes)))].sort(),
        },
      ]),
    );

    const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');
    const section = readme.slice(readme.indexOf('## Observability'), readme.indexOf('## Testing'));
    const rows = [...section.matchAll(/^\| `(bnpl\.[\w.]+)` +\| (\w+)[^|]*\| (.*) \|$/gm)].map((m) => ({
      name: m[1]!,
      kind: m[2]!,
      // The attribute names: code spans with a dot, not the values in parentheses.
      attributes: [...(m[3] ?? '').replace(/\([^)]*\)/g, '').matchAll(/`([a-z_]+\.[a-z_.]+)`/g)]
        .map((a) => a[1]!)
        .sort(),
    }));
    expect(rows.map((r) => r.name).sort()).toEqual(Object.values(METRIC_NAMES).sort());
    expect(Object.fromEntries(rows.map(({ name, ...rest }) => [name, rest]))).toEqual(
      Object.fromEntries(seen),
    );
  });

  it('puts the trace ID on the log lines written while a request is handled', async () => {
    const lines: Record<string, unknown>[] = [];
    const write = (fields: Record<string, unknown>) => lines.push(fields);
    const t = await makeMarket({ logger: { debug: write, info: write, warn: write, error: write } });
    await t.market.handle(new Request(`${ORIGIN}/v1/webhook`, { method: 'POST', body: '{}' }));
    const root = spans.getFinishedSpans().find((s) => s.name === 'bnpl.market receiveWebhook');
    expect(lines.length).toBeGreaterThan(0);
    expect(lines[0]).toMatchObject({
      trace_id: root?.spanContext().traceId,
      span_id: root?.spanContext().spanId,
    });
  });

  it('withSpan marks a failure with its KitError code and rethrows it', async () => {
    const failure = new KitError('upstream_timeout', 'slow');
    await expect(withSpan('job', { kind: 'disburse' }, async () => Promise.reject(failure))).rejects.toBe(
      failure,
    );
    const span = spans.getFinishedSpans().find((s) => s.name === 'job');
    expect(span?.attributes).toEqual({ kind: 'disburse', 'error.type': 'upstream_timeout' });
    expect(span?.status.code).toBe(2);
  });
});

describe('observability without an SDK', () => {
  beforeEach(() => {
    trace.disable();
    metrics.disable();
    context.disable();
  });

  it('runs the work, records nothing and adds no trace fields', async () => {
    expect(await withSpan('anything', {}, async (span) => span.isRecording())).toBe(false);
    expect(traceFields()).toEqual({});
    const t = await makeMarket();
    await insertOrder(t.store, 'o2', 'PENDING');
    expect((await deliverWebhook(t, statusEvent('o2', 'APPROVED'))).response.status).toBe(200);
  });
});

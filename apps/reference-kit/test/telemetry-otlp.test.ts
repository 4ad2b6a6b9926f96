/**
 * The OTLP/HTTP exporters (about 90 modules) load only when OTEL_EXPORTER_OTLP_ENDPOINT is set: a
 * start without an endpoint must not read and compile them (the cold start bench's ready time).
 */
import { afterEach, describe, expect, it, vi } from 'vitest';

const loaded: string[] = [];
vi.mock('@opentelemetry/exporter-metrics-otlp-http', async (importOriginal) => {
  loaded.push('metrics');
  return importOriginal();
});
vi.mock('@opentelemetry/exporter-trace-otlp-http', async (importOriginal) => {
  loaded.push('traces');
  return importOriginal();
});

describe('installTelemetry', () => {
  afterEach(() => {
    loaded.length = 0;
    vi.resetModules();
  });

  it('does not load the OTLP exporters without an endpoint, and installs once', async () => {
    const { installTelemetry } = await import('../src/telemetry.js');
    const first = await installTelemetry({ OTEL_EXPORTER_OTLP_ENDPOINT: ' ' });
    expect(loaded).toEqual([]);
    expect(await installTelemetry({})).toBe(first);
  });

  it('loads both OTLP exporters when OTEL_EXPORTER_OTLP_ENDPOINT is set', async () => {
    const { installTelemetry } = await import('../src/telemetry.js');
    await installTelemetry({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:4318' });
    expect(loaded.sort()).toEqual(['metrics', 'traces']);
  });
});

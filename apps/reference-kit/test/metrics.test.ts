/**
 * The reference server's `/metrics`: the kit's metrics in the Prometheus text format after real
 * traffic (an order through the embedded sandbox, a forged webhook), the trace ID on request log
 * lines, and the token rules (production without METRICS_TOKEN serves no metrics at all).
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Secret } from '@bnpl-kit/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { installTelemetry, metricsRoute } from '../src/telemetry.js';
import { marketClient } from './helpers/market-client.js';
import { removeDir, startTestServer, type TestServer } from './helpers/servers.js';

describe('GET /metrics on a reference server', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ mode: 'basic' });
  });
  afterAll(async () => {
    await server.close();
    await removeDir(server.dataDir);
  });

  it('shows webhook outcomes by code, service call latency and request durations', async () => {
    await marketClient(server.url, server.marketApiToken.reveal()).createOrder();
    const forged = await fetch(`${server.url}/v1/webhook`, { method: 'POST', body: '{}' });
    expect(forged.status).toBe(401);
    const response = await fetch(`${server.url}/metrics`);
    expect(response.status).toBe(200);
    const text = await response.text();
    const scope = 'otel_scope_name="@bnpl-kit/core"';
    expect(text).toContain(
      `bnpl_webhook_outcomes_total{bnpl_outcome="signature_missing_header",${scope}} 1\n`,
    );
    expect(text).toMatch(
      /^bnpl_service_call_duration_count\{bnpl_operation="createOrder",bnpl_outcome="ok",.*\} 1$/m,
    );
    expect(text).toContain(
      `bnpl_market_request_duration_count{bnpl_route="createOrder",http_response_status_code="201",${scope}} 1\n`,
    );
    // Buckets in seconds: a request of a second or less is not lumped into the first bucket.
    expect(text).toMatch(/^bnpl_market_request_duration_bucket\{.*le="0\.005"\} /m);
  });

  it('writes the trace ID of the request on the kit log lines', () => {
    const warned = server.logs
      .map((line) => JSON.parse(line))
      .find((l) => l.code === 'signature_missing_header');
    expect(warned?.trace_id).toMatch(/^[0-9a-f]{32}$/);
  });
});

describe('the metrics route', () => {
  let telemetry: Awaited<ReturnType<typeof installTelemetry>>;
  beforeAll(async () => {
    telemetry = await installTelemetry({});
  });

  async function serve(route: ReturnType<typeof metricsRoute>) {
    const http = createServer((req, res) => (route ? route(req, res) : res.writeHead(404).end()));
    await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(http.address() as AddressInfo).port}/metrics`;
    return { url, close: () => new Promise((resolve) => http.close(resolve)) };
  }

  it('does not exist in production without METRICS_TOKEN', () => {
    expect(metricsRoute(telemetry, { production: true, token: undefined })).toBeUndefined();
  });

  it.each([true, false])(
    'requires METRICS_TOKEN as a bearer token when set (production: %s)',
    async (production) => {
      const token = 'm'.repeat(40);
      const { url, close } = await serve(metricsRoute(telemetry, { production, token: new Secret(token) }));
      try {
        for (const authorization of [undefined, 'Bearer wrong', `Basic ${token}`, `Bearer ${token}x`]) {
          const response = await fetch(url, authorization ? { headers: { authorization } } : {});
          expect(response.status).toBe(401);
          expect(response.headers.get('content-type')).toBe('application/problem+json');
        }
        const ok = await fetch(url, { headers: { authorization: `Bearer ${token}` } });
        expect(ok.status).toBe(200);
        expect(ok.headers.get('content-type')).toMatch(/^text\/plain/);
      } finally {
        await close();
      }
    },
  );
});

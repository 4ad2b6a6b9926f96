/**
 * Issue 10's reproductions against real reference servers on all three frameworks: every answer,
 * framework errors included, is problem+json without internals; absolute-form targets are routed
 * (401, not 500); slow bodies get a 408 problem; a Vietnamese reference_id works end to end through
 * the embedded sandbox (the Idempotency-Key header is encoded); a route that fails inside the
 * framework is a problem, never Express's HTML page or a text/plain 500.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FRAMEWORK_NAMES } from '../src/index.js';
import { orderRequest } from '../src/testing/index.js';
import { INTERNALS } from './helpers/hostile.js';
import { http } from './helpers/market-client.js';
import { rawRequest } from './helpers/raw-http.js';
import { removeDir, startTestServer, type TestServer } from './helpers/servers.js';

describe.each(FRAMEWORK_NAMES)('reference server on %s', (framework) => {
  let server: TestServer;
  beforeAll(async () => {
    // The default request timeouts: the 408 test has a server of its own with short ones, since a
    // loaded machine can stall a server longer than those between accepting a connection and
    // reading its headers (a 408 for an ordinary request: seen once in a loaded run).
    server = await startTestServer({ mode: 'data-sharing', framework });
  });
  afterAll(async () => {
    await server.close();
    await removeDir(server.dataDir);
  });

  it('answers NUL in /bnpl/complete?order_id with a 400 problem, no stack', async () => {
    const response = await fetch(`${server.url}/bnpl/complete?order_id=%00`);
    const text = await response.text();
    expect(response.status).toBe(400);
    expect(response.headers.get('content-type')).toBe('application/problem+json');
    expect(text).not.toMatch(INTERNALS);
  });

  it('routes an absolute-form request target like its path (401 without credentials)', async () => {
    const answer = await rawRequest(
      server.url,
      'POST http://x/v1/orders HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 2\r\nConnection: close\r\n\r\n{}',
    );
    expect(answer.status).toBe(401);
    expect(answer.headers['content-type']).toBe('application/problem+json');
  });

  it('answers a body that stops arriving with a 408 problem after REQUEST_TIMEOUT_MS', async () => {
    const slow = await startTestServer({
      mode: 'data-sharing',
      framework,
      env: { HEADERS_TIMEOUT_MS: '300', REQUEST_TIMEOUT_MS: '600' },
    });
    try {
      const answer = await rawRequest(
        slow.url,
        `POST /v1/orders HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${slow.marketApiToken.reveal()}\r\n` +
          'Content-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"ref',
      );
      expect(answer.status).toBe(408);
      expect(answer.headers['content-type']).toBe('application/problem+json');
      expect(JSON.parse(answer.body)).toMatchObject({ status: 408, code: 'request_timeout' });
    } finally {
      await slow.close();
      await removeDir(slow.dataDir);
    }
  });

  it('creates orders whose reference_id is Vietnamese, CJK or emoji, end to end', async () => {
    const token = server.marketApiToken.reveal();
    for (const ref of [`đơn-hàng-${framework}`, `注文-${framework}`, `🛒-${framework}`]) {
      const created = await http(`${server.url}/v1/orders`, { json: orderRequest(ref), token });
      expect(created.status, JSON.stringify(created.body)).toBe(201);
      expect(created.body.reference_id).toBe(ref);
      const again = await http(`${server.url}/v1/orders`, { json: orderRequest(ref), token });
      expect(again.status).toBe(200);
      expect(again.body.id).toBe(created.body.id);
    }
  });

  it('answers a CRLF in reference_id with 400, not an outage', async () => {
    const token = server.marketApiToken.reveal();
    const answer = await http(`${server.url}/v1/orders`, { json: orderRequest('a\r\nX-Injected: 1'), token });
    expect(answer.status).toBe(400);
    expect(answer.body.code).toBe('validation_failed');
  });

  it('answers a route that throws inside the framework with a problem (last: closes the database)', async () => {
    await server.store.close();
    // The market's own token: without it (or the link's signature) the page never reads the database.
    const response = await fetch(`${server.url}/bnpl/complete?order_id=ord-1`, {
      headers: { authorization: `Bearer ${server.marketApiToken.reveal()}` },
    });
    const text = await response.text();
    expect(response.status).toBeGreaterThanOrEqual(500);
    expect(response.headers.get('content-type')).toBe('application/problem+json');
    expect(text).not.toMatch(INTERNALS);
  });
});

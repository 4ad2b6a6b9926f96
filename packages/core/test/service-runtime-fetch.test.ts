/**
 * With the runtime's own fetch the client trusts the signal to end both the call and the body read
 * (no race around them): a service that stalls, before its headers or in the middle of its body,
 * must still be a timeout.
 */
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createServiceClient } from '../src/index.js';
import { kitErrorOf } from '../src/testing.js';
import { ORDERS, TOKEN_BODY } from './service-support.js';

let server: Server | undefined;
const stalled: ServerResponse[] = [];
afterEach(async () => {
  vi.unstubAllGlobals();
  for (const res of stalled.splice(0)) res.destroy();
  await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  server = undefined;
});

/** A service that answers the token and then stalls the order read as `stall` says. */
async function stallingService(stall: 'headers' | 'body'): Promise<string> {
  server = createServer((req, res) => {
    if (req.url === '/v1/token')
      return res.writeHead(200, { 'content-type': 'application/json' }).end(TOKEN_BODY);
    if (req.url?.startsWith(ORDERS)) {
      stalled.push(res);
      if (stall === 'body') res.writeHead(200, { 'content-type': 'application/json' }).write('{"success":');
      return;
    }
    res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

describe('the service client on the runtime fetch', () => {
  it.each(['headers', 'body'] as const)(
    'times out a service that stalls before its %s end',
    async (stall) => {
      const c = createServiceClient({
        baseUrl: await stallingService(stall),
        apiKey: 'key-123456',
        timeoutMs: 150,
        retries: 0,
      });
      const error = await kitErrorOf(c.getOrder('ord-1'));
      expect(error.code).toBe('upstream_timeout');
    },
  );

  it('races a replaced global fetch that ignores the signal, as it does an injected one', async () => {
    const baseUrl = await stallingService('headers');
    const runtimeFetch = globalThis.fetch;
    // Drops the signal: only the race around the call can end it.
    vi.stubGlobal('fetch', (input: string, init: RequestInit) =>
      runtimeFetch(input, { ...init, signal: null }),
    );
    const c = createServiceClient({ baseUrl, apiKey: 'key-123456', timeoutMs: 150, retries: 0 });
    const error = await kitErrorOf(c.getOrder('ord-1'));
    expect(error.code).toBe('upstream_timeout');
  });
});

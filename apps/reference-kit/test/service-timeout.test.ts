/** The reference servers' service client waits `SERVICE_TIMEOUT_MS` per attempt on an external service. */
import { once } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Secret } from '@bnpl-kit/core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { loadServerConfig } from '../src/index.js';
import { connectService } from '../src/server-service.js';

// A service that takes every request and never answers: only the client's own timer ends a call.
const silent = createServer(() => {});
let serviceUrl = '';
beforeAll(async () => {
  silent.listen(0, '127.0.0.1');
  await once(silent, 'listening');
  serviceUrl = `http://127.0.0.1:${(silent.address() as AddressInfo).port}/api`;
});
afterAll(() => {
  silent.closeAllConnections();
  silent.close();
});

it('gives up on each attempt after SERVICE_TIMEOUT_MS, not the default 8 s', async () => {
  const config = loadServerConfig(
    {
      SERVICE_API_URL: serviceUrl,
      APP_ID: 'org-1',
      APP_API_KEY: 'sk_test_reference',
      SERVICE_TIMEOUT_MS: '150',
    },
    { integrationMode: 'basic', defaults: { port: 3000, dataDir: '.data/test' } },
  );
  const { service } = await connectService({
    config,
    keys: undefined,
    apiKey: new Secret('sk_test_reference'),
    publicBaseUrl: 'http://127.0.0.1:3000',
    store: {} as never,
    logger: {} as never,
    sandboxOptions: undefined,
  });
  await expect(service.getOrder('order-1')).rejects.toMatchObject({
    code: 'upstream_timeout',
    message: expect.stringContaining('within 150 ms'),
  });
});

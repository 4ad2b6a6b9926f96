/**
 * `createMarketWorker` builds its service client from the configuration when given none: with
 * `SERVICE_TIMEOUT_MS` (`loadConfig`'s `serviceTimeoutMs`), as `createMarket` does, so the worker's
 * calls and the endpoints' calls wait on the service alike.
 */
import { once } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { loadConfig, Secret } from '@bnpl-kit/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serviceOf } from '../src/worker/market-worker.js';

// A service that takes every request and never answers: only the client's own timer ends a call.
const silent = createServer(() => {});
let serviceApiUrl = '';
beforeAll(async () => {
  silent.listen(0, '127.0.0.1');
  await once(silent, 'listening');
  serviceApiUrl = `http://127.0.0.1:${(silent.address() as AddressInfo).port}/api`;
});
afterAll(() => {
  silent.closeAllConnections();
  silent.close();
});

describe('the worker and SERVICE_TIMEOUT_MS', () => {
  it('gives up on each attempt of its service calls after the configured time, not the default 8 s', async () => {
    const config = {
      ...loadConfig({ SERVICE_TIMEOUT_MS: '150' }, { integrationMode: 'basic' }),
      serviceApiUrl,
      appApiKey: new Secret('sk_test_worker'),
    };
    await expect(serviceOf({ config }).getOrder('order-1')).rejects.toMatchObject({
      code: 'upstream_timeout',
      message: expect.stringContaining('within 150 ms'),
    });
  });
});

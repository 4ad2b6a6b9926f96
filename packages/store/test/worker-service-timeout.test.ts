/**
 * `createMarketWorker` builds its service client from the configuration when given none: with
 * `SERVICE_TIMEOUT_MS` (`loadConfig`'s `serviceTimeoutMs`), as `createMarket` does, so the worker's
 * calls and the endpoints' calls wait on the service alike.
 */
import { loadConfig, Secret } from '@bnpl-kit/core';
import { describe, expect, it, vi } from 'vitest';
import { openStore } from '../src/index.js';
import { createMarketWorker } from '../src/worker.js';

const built = vi.hoisted(() => [] as unknown[]);
vi.mock('@bnpl-kit/core', async (importOriginal) => {
  const core = await importOriginal<typeof import('@bnpl-kit/core')>();
  return {
    ...core,
    createServiceClient: (options: Parameters<typeof core.createServiceClient>[0]) => {
      built.push(options);
      return core.createServiceClient(options);
    },
  };
});

describe('the worker and SERVICE_TIMEOUT_MS', () => {
  it('gives the service client it builds the configured timeout', async () => {
    const store = await openStore({ memory: true });
    try {
      const config = {
        ...loadConfig({ SERVICE_TIMEOUT_MS: '2500' }, { integrationMode: 'basic' }),
        serviceApiUrl: 'https://service.example/api',
        appApiKey: new Secret('sk_test_worker'),
      };
      createMarketWorker({ store, config, retention: false, reconciliation: false });
      expect(built).toEqual([expect.objectContaining({ baseUrl: 'https://service.example/api', timeoutMs: 2500 })]);
    } finally {
      await store.close();
    }
  });
});

/** The reference servers' service client waits `SERVICE_TIMEOUT_MS` per attempt on an external service. */
import { Secret } from '@bnpl-kit/core';
import { expect, it, vi } from 'vitest';
import { loadServerConfig } from '../src/index.js';
import { connectService } from '../src/server-service.js';

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

it('builds the client for SERVICE_API_URL with SERVICE_TIMEOUT_MS', async () => {
  const config = loadServerConfig(
    {
      SERVICE_API_URL: 'https://service.example/api',
      APP_ID: 'org-1',
      APP_API_KEY: 'sk_test_reference',
      SERVICE_TIMEOUT_MS: '2500',
    },
    { integrationMode: 'basic', defaults: { port: 3000, dataDir: '.data/test' } },
  );
  await connectService({
    config,
    keys: undefined,
    apiKey: new Secret('sk_test_reference'),
    publicBaseUrl: 'http://127.0.0.1:3000',
    store: {} as never,
    logger: {} as never,
    sandboxOptions: undefined,
  });
  expect(built).toEqual([expect.objectContaining({ baseUrl: 'https://service.example/api', timeoutMs: 2500 })]);
});

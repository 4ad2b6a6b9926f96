/**
 * The kit's side of the PostgreSQL webhook benchmark: one adapter (express, koa or hono) over
 * `createMarket` with `@bnpl-kit/store` on PostgreSQL, as a market would deploy it. `plain` has no
 * `handleWebhook` hook (the webhook is one statement), `hook` a no-op one (the statement runs in a
 * transaction with the hook inside, the order locked and read whole).
 *
 *   kit-webhook.ts <framework> <databaseUrl> <schema> <publicKey> <plain|hook> <publicBaseUrl>
 */
import type { Server } from 'node:http';
import { createMarket, type MarketHooks, type ServiceClient, silentLogger } from '@bnpl-kit/core';
import { openStore, type StoreTransaction } from '@bnpl-kit/store';
import { serveForParent } from './child.js';

const [framework, databaseUrl, schema, publicKey, variant, publicBaseUrl] = process.argv.slice(2) as [
  'express' | 'koa' | 'hono',
  string,
  string,
  string,
  'plain' | 'hook',
  string,
];

const unusedService = new Proxy({} as ServiceClient, {
  get: () => () => Promise.reject(new Error('the benchmark never calls the service')),
});

const store = await openStore({ databaseUrl, schema, migrate: false });
const hooks: MarketHooks<StoreTransaction> = {
  authenticateInternalAPIClient: async () => null,
  authenticateInternalUser: async () => null,
  getBNPLCallback: () => `${publicBaseUrl}/done`,
  ...(variant === 'hook' ? { handleWebhook: async () => {} } : {}),
};
const market = createMarket({
  config: {
    mode: 'sandbox',
    integrationMode: 'basic',
    appId: 'bench',
    publicBaseUrl,
    servicePublicKey: publicKey,
  },
  hooks,
  service: unusedService,
  store,
  logger: silentLogger,
});

async function listen(): Promise<Server> {
  if (framework === 'express') {
    const { default: express } = await import('express');
    const { createBnplRouter } = await import('@bnpl-kit/express');
    return express().use(createBnplRouter(market)).listen(0, '127.0.0.1');
  }
  if (framework === 'koa') {
    const { default: Koa } = await import('koa');
    const { createBnplRouter } = await import('@bnpl-kit/koa');
    return new Koa().use(createBnplRouter(market)).listen(0, '127.0.0.1');
  }
  const { Hono } = await import('hono');
  const { serve } = await import('@hono/node-server');
  const { createBnplRouter } = await import('@bnpl-kit/hono');
  const app = new Hono().route('/', createBnplRouter(market));
  return serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }) as Server;
}

await serveForParent(await listen());

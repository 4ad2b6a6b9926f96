/**
 * The kit's side of the order-creation benchmark: one adapter over `createMarket` with the store on
 * PostgreSQL and the real service client calling the sandbox service, as a market deploys it.
 *
 *   kit-orders.ts <framework> <databaseUrl> <schema> <serviceUrl>
 */
import type { Server } from 'node:http';
import { createMarket, createServiceClient, Secret, silentLogger } from '@bnpl-kit/core';
import { openStore } from '@bnpl-kit/store';
import { serveForParent } from './child.js';

const [framework, databaseUrl, schema, serviceUrl] = process.argv.slice(2) as [
  'express' | 'koa' | 'hono',
  string,
  string,
  string,
];
const PUBLIC_BASE = 'https://market.example.com';

const store = await openStore({ databaseUrl, schema, migrate: false });
const market = createMarket({
  config: { mode: 'sandbox', integrationMode: 'basic', appId: 'bench', publicBaseUrl: PUBLIC_BASE },
  hooks: {
    authenticateInternalAPIClient: async (request) =>
      request.headers.get('authorization') === 'Bearer bench-market-token' ? { id: 'bench-client' } : null,
    authenticateInternalUser: async () => null,
    getBNPLCallback: () => `${PUBLIC_BASE}/done`,
  },
  service: createServiceClient({ baseUrl: serviceUrl, apiKey: new Secret('sk_bench_key') }),
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

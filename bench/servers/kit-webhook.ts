/**
 * The kit's side of the PostgreSQL webhook benchmark: one adapter (express, koa or hono) over
 * `createMarket` with `@bnpl-kit/store` on PostgreSQL, as a market would deploy it. `plain` has no
 * `handleWebhook` hook (the webhook is one statement), `hook` a no-op one (the statement runs in a
 * transaction with the hook inside, the order locked and read whole).
 *
 *   kit-webhook.ts <framework> <databaseUrl> <schema> <publicKey> <plain|hook> <publicBaseUrl>
 */
import { createMarket, type MarketHooks, type ServiceClient, silentLogger } from '@bnpl-kit/core';
import { openStore, type StoreTransaction } from '@bnpl-kit/store';
import pg from 'pg';
import { serveForParent } from './child.js';
import { countRoundTrips } from './count-round-trips.js';
import { type Framework, listen } from './listen.js';

countRoundTrips(pg);

const [framework, databaseUrl, schema, publicKey, variant, publicBaseUrl] = process.argv.slice(2) as [
  Framework,
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

await serveForParent(await listen(framework, market));

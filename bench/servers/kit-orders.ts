/**
 * The kit's side of the order-creation benchmark: one adapter over `createMarket` with the store on
 * PostgreSQL and the real service client calling the sandbox service, as a market deploys it.
 *
 *   kit-orders.ts <framework> <databaseUrl> <schema> <serviceUrl>
 */
import { createMarket, createServiceClient, Secret, silentLogger } from '@bnpl-kit/core';
import { openStore } from '@bnpl-kit/store';
import pg from 'pg';
import { serveForParent } from './child.js';
import { countRoundTrips } from './count-round-trips.js';
import { type Framework, listen } from './listen.js';

const [framework, databaseUrl, schema, serviceUrl] = process.argv.slice(2) as [
  Framework,
  string,
  string,
  string,
];
const PUBLIC_BASE = 'https://market.example.com';
// The store's `pg` is this one (one version in the workspace): its queries are counted too.
countRoundTrips(pg);

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

await serveForParent(await listen(framework, market));

/**
 * The embedded stack of a reference server in sandbox mode, without the reference app around it:
 * the market on hono, its store on PGlite in a fresh data directory, and the persistent sandbox in
 * this process keeping its records in that store. It watches its own event loop
 * (`monitorEventLoopDelay`) and answers the parent's `delay` message with the worst delay and the
 * 99th percentile since it started listening, in milliseconds.
 *
 *   embedded-pglite.ts
 */
import { rmSync } from 'node:fs';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { createMarket, createServiceClient, Secret, silentLogger } from '@bnpl-kit/core';
import { createPersistentSandbox, createSandboxFetch } from '@bnpl-kit/sandbox';
import { openStore, sandboxRecords } from '@bnpl-kit/store';
import { serveForParent } from './child.js';
import { listen } from './listen.js';

const PUBLIC_BASE = 'https://market.example.com';
const dataDir = await mkdtemp(join(tmpdir(), 'bnpl-bench-pglite-'));
const store = await openStore({ dataDir });
const sandbox = await createPersistentSandbox({
  records: sandboxRecords(store, 'embedded:bench'),
  organizations: [{ id: 'bench', name: 'Bench market', apiKeys: ['sk_bench_key'], whitelisted: true }],
  onPersistError: () => {},
});
const market = createMarket({
  config: { mode: 'sandbox', integrationMode: 'basic', appId: 'bench', publicBaseUrl: PUBLIC_BASE },
  hooks: {
    authenticateInternalAPIClient: async (request) =>
      request.headers.get('authorization') === 'Bearer bench-market-token' ? { id: 'bench-client' } : null,
    authenticateInternalUser: async () => null,
    getBNPLCallback: () => `${PUBLIC_BASE}/done`,
  },
  service: createServiceClient({
    baseUrl: `${PUBLIC_BASE}/sandbox-service`,
    apiKey: new Secret('sk_bench_key'),
    fetch: createSandboxFetch(sandbox, { basePath: '/sandbox-service', sharesStore: true }),
  }),
  store,
  logger: silentLogger,
});

const delay = monitorEventLoopDelay({ resolution: 10 });
delay.enable();
process.on('message', (message: string) => {
  if (message !== 'delay') return;
  process.send?.({ maxMs: delay.max / 1e6, p99Ms: delay.percentile(99) / 1e6 });
});
// The parent stops this server with SIGINT (serveForParent exits): the directory goes with it.
process.on('exit', () => rmSync(dataDir, { recursive: true, force: true }));
await serveForParent(await listen('hono', market));

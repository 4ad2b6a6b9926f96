/**
 * Profiling aid, not a benchmark: measures what one webhook costs the kit in quantities that do
 * not depend on how loaded the machine is. In one process, without HTTP: the store on PostgreSQL
 * (BENCH_DATABASE_URL) or PGlite (`pglite`), `market.handle` fed N pre-signed status updates
 * `concurrency` at a time, with no hook (`plain`) or a no-op `handleWebhook` (`hook`). Prints
 * - protocol round trips per webhook on PostgreSQL (every `pg` Client.query: BEGIN, statements,
 *   COMMIT; packages/store/test/round-trips.test.ts holds the kit to its count),
 * - bytes allocated per webhook (the sampling heap profiler, counting what GC collected too) and
 *   the functions that allocated most; BENCH_HEAP_OUT writes the heap profile,
 * - with BENCH_PROF_OUT instead, a `.cpuprofile` of the measured loop only (setup and signing
 *   excluded) and its top self-time functions as shares of the total.
 * CPU microseconds are printed too, but they depend on the machine's load: compare shares.
 *
 *   tsx --conditions=source profile-webhook.ts <plain|hook> [postgres|pglite] [n] [concurrency]
 */
import { randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { createMarket, type MarketHooks, type ServiceClient, silentLogger } from '@bnpl-kit/core';
import { generateKeyPair, orderLineFixture, signWebhook } from '@bnpl-kit/core/testing';
import { openStore, type StoreTransaction } from '@bnpl-kit/store';
import pg from 'pg';
import { type SampledHeap, topAllocations, topSelfTime } from './cpu-profile.js';

const [variant = 'hook', backend = 'postgres', n = '2000', concurrency = '8'] = process.argv.slice(2);
const DATABASE_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const PUBLIC_BASE = 'https://market.example.com';
const schema = `bnpl_prof_${randomBytes(4).toString('hex')}`;

const store =
  backend === 'pglite'
    ? await openStore({ memory: true })
    : await openStore({ databaseUrl: DATABASE_URL, schema });
const keys = await generateKeyPair();
const hooks: MarketHooks<StoreTransaction> = {
  authenticateInternalAPIClient: async () => null,
  authenticateInternalUser: async () => null,
  getBNPLCallback: () => `${PUBLIC_BASE}/done`,
  ...(variant === 'hook' ? { handleWebhook: async () => {} } : {}),
};
const market = createMarket({
  config: {
    mode: 'sandbox',
    integrationMode: 'basic',
    appId: 'bench',
    publicBaseUrl: PUBLIC_BASE,
    servicePublicKey: keys.publicKey,
  },
  hooks,
  service: new Proxy({} as ServiceClient, { get: () => () => Promise.reject(new Error('unused')) }),
  store,
  logger: silentLogger,
});

const total = Number(n);
const signed: { headers: Record<string, string>; body: Uint8Array<ArrayBuffer> }[] = [];
for (let i = 0; i < total; i++) {
  const id = `ord_${i}`;
  await store.insertOrder({
    id,
    referenceId: `ref_${i}`,
    totalAmount: { value: '300000', currency: 'VND' },
    orderLines: [orderLineFixture()],
    status: 'PENDING',
    requestFingerprint: 'fp',
  });
  signed.push(
    await signWebhook({
      url: market.webhookUrl,
      body: { type: 'BNPL_ORDER_STATUS_UPDATED', order_id: id, order_status: 'APPROVED' },
      signingKey: keys.seed,
      eventId: `evt_${i}`,
    }),
  );
}

// Every pg protocol exchange (simple or extended query) goes through Client.prototype.query.
let roundTrips = 0;
const query = pg.Client.prototype.query;
pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
  roundTrips++;
  return (query as (...a: unknown[]) => unknown).apply(this, args);
} as typeof query;

async function deliver(i: number): Promise<void> {
  const s = signed[i] as (typeof signed)[number];
  const response = await market.handle(
    new Request(market.webhookUrl, { method: 'POST', headers: s.headers, body: s.body }),
  );
  if (response.status !== 200) throw new Error(`webhook ${i}: ${response.status} ${await response.text()}`);
  await response.arrayBuffer();
}

async function run(from: number, to: number): Promise<void> {
  let next = from;
  await Promise.all(
    Array.from({ length: Number(concurrency) }, async () => {
      while (next < to) await deliver(next++);
    }),
  );
}

// Warm up on the first tenth (JIT, prepared statements, pool connections), then measure the rest.
const warm = Math.floor(total / 10);
await run(0, warm);
roundTrips = 0;
const session = new Session();
session.connect();
const profileOut = process.env.BENCH_PROF_OUT;
if (profileOut) {
  await session.post('Profiler.enable');
  await session.post('Profiler.setSamplingInterval', { interval: 100 });
  await session.post('Profiler.start');
}
global.gc?.();
const heapBefore = process.memoryUsage().heapUsed;
const cpuBefore = process.cpuUsage();
// The heap sampler's own work would show in the CPU profile: one or the other per run.
if (!profileOut) await session.post('HeapProfiler.enable');
if (!profileOut)
  await session.post('HeapProfiler.startSampling', {
    samplingInterval: 512,
    // Count what the young and old generation collected too: the total allocated, not what survived.
    // BENCH_HEAP_SAMPLE=promoted (as in servers/child.ts) leaves out what a scavenge collected:
    // what lived long enough to be promoted (which only a mark-compact frees) and what is alive.
    includeObjectsCollectedByMajorGC: true,
    includeObjectsCollectedByMinorGC: process.env.BENCH_HEAP_SAMPLE !== 'promoted',
  });
await run(warm, total);
const heap = profileOut
  ? { samples: [] }
  : ((await session.post('HeapProfiler.stopSampling')) as unknown as { profile: SampledHeap }).profile;
const cpu = process.cpuUsage(cpuBefore);
const measured = total - warm;
const sampledBytes = heap.samples.reduce((sum, s) => sum + s.size, 0);
console.log(
  JSON.stringify({
    variant,
    backend,
    webhooks: measured,
    roundTripsPerWebhook: backend === 'postgres' ? roundTrips / measured : 'n/a (in-process)',
    allocatedKBPerWebhook: Number((sampledBytes / measured / 1024).toFixed(2)),
    heapGrowthKBPerWebhook: Number(
      ((process.memoryUsage().heapUsed - heapBefore) / measured / 1024).toFixed(2),
    ),
    cpuMicrosPerWebhook: Math.round((cpu.user + cpu.system) / measured),
  }),
);
if (!profileOut && process.env.BENCH_HEAP_OUT)
  writeFileSync(process.env.BENCH_HEAP_OUT, JSON.stringify(heap));
if (!profileOut) for (const row of topAllocations(heap as SampledHeap, measured, 20)) console.log(row);
if (profileOut) {
  const { profile } = (await session.post('Profiler.stop')) as { profile: Parameters<typeof topSelfTime>[0] };
  writeFileSync(profileOut, JSON.stringify(profile));
  for (const row of topSelfTime(profile, 25)) console.log(row);
}
session.disconnect();
if (backend === 'postgres') {
  const admin = new pg.Client({ connectionString: DATABASE_URL });
  await admin.connect();
  await admin.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
  await admin.end();
}
await store.close();

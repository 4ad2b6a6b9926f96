/**
 * Profiling aid, not a benchmark: what one `POST /v1/orders` costs the kit next to the hand-written
 * baseline (servers/baseline-orders.ts's steps), in quantities that do not depend on how loaded
 * the machine is. Both run in this process without an HTTP server in front (so neither pays for
 * one), against the same sandbox service in a child process and the same PostgreSQL. Prints round
 * trips to PostgreSQL per order, bytes allocated per order (the sampling heap profiler, counting
 * what GC collected too) and its top allocating functions; with BENCH_PROF_OUT a `.cpuprofile`
 * of the measured loop and its top self-time shares instead; with BENCH_HEAP_OUT the heap profile.
 * Also the CPU the sandbox service spent per order (Linux); BENCH_PROFILER=none runs neither
 * profiler, for CPU per order without their overhead.
 *
 *   tsx --conditions=source profile-orders.ts <kit|baseline> [n] [concurrency]
 */
import { fork } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { fileURLToPath } from 'node:url';
import {
  createMarket,
  createServiceClient,
  type OrderCreateRequest,
  Secret,
  silentLogger,
} from '@bnpl-kit/core';
import { wireOrder } from '@bnpl-kit/core/testing';
import { orderCreateRequestCodec, parseWire } from '@bnpl-kit/core/wire';
import { openStore } from '@bnpl-kit/store';
import pg from 'pg';
import { type SampledHeap, topAllocations, topSelfTime } from './cpu-profile.js';
import { processCpuMicros } from './http-child.js';

const [variant = 'kit', n = '1500', concurrency = '8'] = process.argv.slice(2);
const DATABASE_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const PUBLIC_BASE = 'https://market.example.com';
const schema = `bnpl_prof_${randomBytes(4).toString('hex')}`;

const serviceProcess = fork(fileURLToPath(new URL('./servers/sandbox-service.ts', import.meta.url)), [], {
  stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
});
const [message] = (await once(serviceProcess, 'message')) as [{ port: number }];
const serviceUrl = `http://127.0.0.1:${message.port}`;
const store = await openStore({ databaseUrl: DATABASE_URL, schema });

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

// The baseline's steps (servers/baseline-orders.ts), minus its HTTP server.
const pool = new pg.Pool({ connectionString: DATABASE_URL, max: 10, options: `-c search_path=${schema}` });
const tokenResponse = await fetch(`${serviceUrl}/v1/token`, {
  method: 'POST',
  headers: { 'X-API-KEY': 'sk_bench_key', accept: 'application/json' },
});
const token = ((await tokenResponse.json()) as { data: { access_token: string } }).data.access_token;

async function baseline(body: string): Promise<number> {
  const order: OrderCreateRequest = parseWire(orderCreateRequestCodec.schema, JSON.parse(body));
  const answer = await fetch(`${serviceUrl}/v1/integration/bnpl-consumers/orders`, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${token}`,
      'content-type': 'application/json',
      accept: 'application/json',
      'idempotency-key': `create-order:${order.referenceId}`,
    },
    body: JSON.stringify(orderCreateRequestCodec.encode(order)),
  });
  const created = ((await answer.json()) as { data: { id: string; order_status: string } }).data;
  await pool.query(
    `INSERT INTO bnpl_orders (id, reference_id, total_value, currency, order_lines, status, request_fingerprint)
     VALUES ($1, $2, $3::numeric, $4, $5::jsonb, $6, '')`,
    [
      created.id,
      order.referenceId,
      order.totalAmount.value,
      order.totalAmount.currency,
      JSON.stringify(order.orderLines),
      created.order_status,
    ],
  );
  JSON.stringify({ id: created.id, reference_id: order.referenceId, status: created.order_status });
  return 201;
}

async function kit(body: string): Promise<number> {
  const response = await market.handle(
    new Request(`${PUBLIC_BASE}/v1/orders`, {
      method: 'POST',
      headers: { authorization: 'Bearer bench-market-token', 'content-type': 'application/json' },
      body,
    }),
  );
  await response.arrayBuffer();
  return response.status;
}

const total = Number(n);
const prefix = `ref_${process.pid}`;
const bodies = Array.from({ length: total }, (_, i) =>
  JSON.stringify(wireOrder({ reference_id: `${prefix}_${i}` })),
);
const create = variant === 'baseline' ? baseline : kit;

let roundTrips = 0;
const query = pg.Client.prototype.query;
pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
  roundTrips++;
  return (query as (...a: unknown[]) => unknown).apply(this, args);
} as typeof query;

async function run(from: number, to: number): Promise<void> {
  let next = from;
  await Promise.all(
    Array.from({ length: Number(concurrency) }, async () => {
      while (next < to) {
        const status = await create(bodies[next++] as string);
        if (status !== 201) throw new Error(`order creation answered ${status}`);
      }
    }),
  );
}

const warm = Math.floor(total / 10);
await run(0, warm);
roundTrips = 0;
const session = new Session();
session.connect();
const profileOut = process.env.BENCH_PROF_OUT;
// BENCH_PROFILER=none: neither profiler runs, so the CPU per order carries none of their overhead.
const plain = process.env.BENCH_PROFILER === 'none';
if (plain) {
  // Nothing to start.
} else if (profileOut) {
  await session.post('Profiler.enable');
  await session.post('Profiler.setSamplingInterval', { interval: 100 });
  await session.post('Profiler.start');
} else {
  await session.post('HeapProfiler.enable');
  await session.post('HeapProfiler.startSampling', {
    samplingInterval: 512,
    includeObjectsCollectedByMajorGC: true,
    includeObjectsCollectedByMinorGC: true,
  });
}
const cpuBefore = process.cpuUsage();
const serviceCpuBefore = processCpuMicros(serviceProcess.pid!);
await run(warm, total);
const cpu = process.cpuUsage(cpuBefore);
const serviceCpuAfter = processCpuMicros(serviceProcess.pid!);
const measured = total - warm;
const summary: Record<string, unknown> = {
  variant,
  orders: measured,
  roundTripsPerOrder: roundTrips / measured,
  cpuMicrosPerOrder: Math.round((cpu.user + cpu.system) / measured),
  // What the order costs the service behind (10 ms ticks): the kit and the baseline send it the
  // same request, so a difference here is in how the request is sent.
  serviceCpuMicrosPerOrder:
    serviceCpuBefore === undefined || serviceCpuAfter === undefined
      ? 'n/a'
      : Math.round((serviceCpuAfter - serviceCpuBefore) / measured),
};
if (plain) {
  console.log(JSON.stringify(summary));
} else if (profileOut) {
  const { profile } = (await session.post('Profiler.stop')) as { profile: Parameters<typeof topSelfTime>[0] };
  writeFileSync(profileOut, JSON.stringify(profile));
  console.log(JSON.stringify(summary));
  for (const row of topSelfTime(profile, 25)) console.log(row);
} else {
  const { profile } = (await session.post('HeapProfiler.stopSampling')) as unknown as {
    profile: SampledHeap;
  };
  if (process.env.BENCH_HEAP_OUT) writeFileSync(process.env.BENCH_HEAP_OUT, JSON.stringify(profile));
  summary.allocatedKBPerOrder = Number(
    (profile.samples.reduce((sum, s) => sum + s.size, 0) / measured / 1024).toFixed(2),
  );
  console.log(JSON.stringify(summary));
  for (const row of topAllocations(profile, measured, 25)) console.log(row);
}
session.disconnect();
await pool.end();
await store.close();
const admin = new pg.Client({ connectionString: DATABASE_URL });
await admin.connect();
await admin.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
await admin.end();
serviceProcess.kill('SIGINT');

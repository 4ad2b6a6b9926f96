/**
 * Order creation on PostgreSQL: `POST /v1/orders` per adapter (authenticate, validate, fingerprint,
 * replay lookup, the service call, insert with its history row) next to a minimal hand-written
 * endpoint (servers/baseline-orders.ts: validate once, call the same service, insert). Both call
 * the same sandbox service, which runs in a process of its own; every request carries a new
 * `reference_id`, so no request takes a replay path. Interleaved rounds as in webhook-pg.
 *
 * Environment: BENCH_ORDER_CONNECTIONS (16), BENCH_CANDIDATES (baseline,express,koa,hono),
 * BENCH_ROUNDS, BENCH_SECONDS, BENCH_DATABASE_URL, BENCH_PIN.
 */
import { fork } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { type BenchModule, formatRate, median, printTable } from './harness.js';
import { type LoadRequest, type Measured, measureChild } from './http-child.js';
import { DATABASE_URL, openPgFixture } from './pg-fixture.js';
import { isPinned, LOAD_CPU, pin, pinLoadGenerator, unpinLoadGenerator } from './pin.js';

const CANDIDATES = ['baseline', 'express', 'koa', 'hono'] as const;
type Candidate = (typeof CANDIDATES)[number];
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 4);
const CONNECTIONS = Number(process.env.BENCH_ORDER_CONNECTIONS ?? 16);
const POOL = 40_000;

const server = (name: string) => fileURLToPath(new URL(`./servers/${name}.ts`, import.meta.url));

let batch = 0;
/** Create requests with fresh reference IDs: a new pool for every measurement. */
function createRequests(): LoadRequest[] {
  const prefix = `ref_${process.pid}_${batch++}`;
  const headers = { authorization: 'Bearer bench-market-token', 'content-type': 'application/json' };
  return Array.from({ length: POOL }, (_, i) => ({
    headers,
    body: Buffer.from(
      JSON.stringify({
        reference_id: `${prefix}_${i}`,
        total_amount: { value: '150000', currency: 'VND' },
        order_lines: [
          {
            name: 'Bánh mì',
            reference_id: 'sku-1',
            image_url: 'https://example.com/img.png',
            product_url: 'https://example.com/p/1',
            quantity: 3,
            measment_unit: 'EACH', // spelled so by the specification
            unit_price: { value: '50000', currency: 'VND' },
            subtotal: { value: '150000', currency: 'VND' },
          },
        ],
      }),
    ),
  }));
}

async function startService(): Promise<{ url: string; stop: () => Promise<void> }> {
  const child = fork(server('sandbox-service'), [], {
    execArgv: process.execArgv,
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  // With the load generator, off the server's core: its cost is the same for every candidate.
  if (isPinned() && child.pid !== undefined) pin(child.pid, LOAD_CPU);
  const [message] = (await once(child, 'message')) as [{ port: number }];
  return {
    url: `http://127.0.0.1:${message.port}`,
    async stop() {
      child.kill('SIGINT');
      if (child.exitCode === null) await once(child, 'exit');
    },
  };
}

async function run(): Promise<void> {
  const candidates = (process.env.BENCH_CANDIDATES ?? CANDIDATES.join(','))
    .split(',')
    .filter((c): c is Candidate => (CANDIDATES as readonly string[]).includes(c));
  const fixture = await openPgFixture();
  pinLoadGenerator();
  const service = await startService();
  try {
    console.log(
      `${ROUNDS} interleaved rounds × 1+${SECONDS} s per candidate at ${CONNECTIONS} connections; ` +
        `PostgreSQL at ${DATABASE_URL.replace(/:[^:@/]*@/, ':***@')}; sandbox service in its own process.`,
    );
    const runs = new Map<Candidate, Measured[]>(candidates.map((c) => [c, []]));
    for (let round = 0; round < ROUNDS; round++) {
      for (let k = 0; k < candidates.length; k++) {
        const candidate = candidates[(k + round) % candidates.length]!;
        const spec =
          candidate === 'baseline'
            ? { script: server('baseline-orders'), args: [DATABASE_URL, fixture.schema, service.url] }
            : { script: server('kit-orders'), args: [candidate, DATABASE_URL, fixture.schema, service.url] };
        runs.get(candidate)!.push(
          await measureChild(spec, '/v1/orders', createRequests(), {
            connections: CONNECTIONS,
            warmupSeconds: 1,
            seconds: SECONDS,
          }),
        );
      }
    }
    const base = runs.get('baseline');
    printTable(
      [...runs].map(([candidate, rs]) => {
        const rps = rs.map((r) => r.rps);
        const ratio = base ? median(rs.map((r, i) => r.rps / base[i]!.rps)) : undefined;
        const bad = rs.reduce((n, r) => n + r.bad, 0);
        return {
          candidate,
          'req/s min/med/max': `${formatRate(Math.min(...rps))}/${formatRate(median(rps))}/${formatRate(Math.max(...rps))}`,
          'vs baseline': ratio === undefined ? '' : `${(ratio * 100).toFixed(0)} %`,
          'goal ≥ 85 %': candidate === 'baseline' || ratio === undefined ? '' : ratio >= 0.85 ? 'yes' : 'NO',
          'p99 ms': String(median(rs.map((r) => r.p99))),
          'server CPU µs/req': String(Math.round(median(rs.map((r) => r.cpuMicrosPerRequest)))),
          notes: bad > 0 ? `${bad} non-2xx/errors` : '',
        };
      }),
    );
  } finally {
    await service.stop();
    unpinLoadGenerator();
    await fixture.close();
  }
}

const bench: BenchModule = {
  title: 'Order creation on PostgreSQL per adapter (vs. a minimal hand-written endpoint)',
  run,
};
export default bench;

/**
 * Order creation on PostgreSQL: `POST /v1/orders` per adapter (authenticate, validate, fingerprint,
 * replay lookup, the service call, insert with its history row) next to a minimal hand-written
 * endpoint (servers/baseline-orders.ts: validate once, call the same service, insert). Both call
 * the same sandbox service, which runs in a process of its own; every request carries a new
 * `reference_id`, so no request takes a replay path. Interleaved rounds as in webhook-pg.
 *
 * Every measurement gets a fresh service too: the sandbox keeps every order in memory, so a service
 * shared by all runs would carry the earlier runs' orders into the later ones (when it still found
 * an order by reference ID with a scan, that made the ratio depend on the order of the rounds).
 *
 * Beside requests per second: CPU per order of the server, the service and PostgreSQL, and their
 * sum ("total CPU µs/req", what the CPU ratio compares), and database round trips per order
 * ("DB trips/req"), counted in each server by wrapping `pg.Client.prototype.query`
 * (servers/count-round-trips.ts): one query sent is one round trip, for the baseline's pool and
 * the kit's store alike, over the same measured window as the CPU figures. Requests still in
 * flight at either end of the window put a few queries more in it than the answers counted (at
 * 16 connections and a few hundred orders/s, 1–3 %): 1.02 is one round trip per order.
 *
 * Environment: BENCH_ORDER_CONNECTIONS (16), BENCH_CANDIDATES (baseline,baseline-http,baseline-express,
 * baseline-koa,baseline-hono,express,koa,hono; a name
 * with `@before` runs that server from the checkout at BENCH_BEFORE, see pg-rounds.ts),
 * BENCH_ROUNDS, BENCH_SECONDS, BENCH_DATABASE_URL, BENCH_PIN; BENCH_NODE_FLAGS and
 * BENCH_SERVICE_NODE_FLAGS (e.g. `--cpu-prof --cpu-prof-dir=/tmp/p`) for the server and the service;
 * BENCH_FROM_DIST and BENCH_NODE_ENV as in webhook-pg.
 */
import { fork } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { wireOrder } from '@bnpl-kit/core/testing';
import { type BenchModule, printTable } from './harness.js';
import { type LoadRequest, measureChild } from './http-child.js';
import { DATABASE_URL } from './pg-fixture.js';
import * as rounds from './pg-rounds.js';
import { isPinned, LOAD_CPU, pin } from './pin.js';

// `baseline-http` is the baseline with its service call on node:http, as the kit's on Node;
// `baseline-express`, … the same as that framework's own route (the "vs own framework" column).
const CANDIDATES = [
  'baseline',
  'baseline-http',
  ...rounds.FRAMEWORK_BASELINES,
  'express',
  'koa',
  'hono',
] as const;
type Candidate = (typeof CANDIDATES)[number] | `${(typeof CANDIDATES)[number]}${typeof rounds.BEFORE_SUFFIX}`;
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
    body: Buffer.from(JSON.stringify(wireOrder({ reference_id: `${prefix}_${i}` }))),
  }));
}

async function startService(): Promise<{ url: string; pid: number | undefined; stop: () => Promise<void> }> {
  // BENCH_SERVICE_NODE_FLAGS adds flags to the service only, e.g. `--cpu-prof --cpu-prof-dir=/tmp/p`.
  const extra = process.env.BENCH_SERVICE_NODE_FLAGS?.split(' ').filter(Boolean) ?? [];
  const child = fork(server('sandbox-service'), [], {
    execArgv: [...process.execArgv, ...extra],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  // With the load generator, off the server's core: its cost is the same for every candidate.
  if (isPinned() && child.pid !== undefined) pin(child.pid, LOAD_CPU);
  const [message] = (await once(child, 'message')) as [{ port: number }];
  return {
    url: `http://127.0.0.1:${message.port}`,
    pid: child.pid,
    async stop() {
      child.kill('SIGINT');
      if (child.exitCode === null) await once(child, 'exit');
    },
  };
}

/** A baseline's transport and framework (servers/baseline-orders.ts): fetch only for `baseline`. */
function baselineArgs(name: string): [transport: 'fetch' | 'http', framework: string] {
  if (name === 'baseline') return ['fetch', 'node'];
  if (name === 'baseline-http') return ['http', 'node'];
  return ['http', name.slice(rounds.FRAMEWORK_BASELINE.length)];
}

async function measure(candidate: Candidate, schema: string) {
  const service = await startService();
  try {
    const name = rounds.baseCandidate<(typeof CANDIDATES)[number]>(candidate);
    const spec = name.startsWith('baseline')
      ? {
          script: rounds.scriptFor(candidate, server('baseline-orders')),
          args: [DATABASE_URL, schema, service.url, ...baselineArgs(name)],
        }
      : {
          script: rounds.scriptFor(candidate, server('kit-orders')),
          args: [name, DATABASE_URL, schema, service.url],
        };
    return await measureChild(spec, '/v1/orders', createRequests(), {
      connections: CONNECTIONS,
      warmup: rounds.WARMUP,
      seconds: rounds.SECONDS,
      sidePid: service.pid,
    });
  } finally {
    await service.stop();
  }
}

async function run(): Promise<void> {
  const candidates = (process.env.BENCH_CANDIDATES ?? CANDIDATES.join(','))
    .split(',')
    .filter((c): c is Candidate => (CANDIDATES as readonly string[]).includes(rounds.baseCandidate(c)));
  await rounds.withPgFixture(async (fixture) => {
    console.log(
      `${rounds.ROUNDS} interleaved rounds per candidate of ${rounds.WARMUP_WORDS} and ${rounds.SECONDS} s measured at ${CONNECTIONS} connections; ` +
        `PostgreSQL at ${DATABASE_URL.replace(/:[^:@/]*@/, ':***@')}; a fresh sandbox service per run, ` +
        `in its own process${isPinned() ? ` on CPU ${LOAD_CPU} with the load generator` : ''}.`,
    );
    const runs = await rounds.interleave(candidates, (candidate) => measure(candidate, fixture.schema));
    printTable(rounds.summarise(runs, {}, 'baseline', undefined, rounds.frameworkPeer));
  });
}

const bench: BenchModule = {
  title: 'Order creation on PostgreSQL per adapter (vs. a minimal hand-written endpoint)',
  run,
};
export default bench;

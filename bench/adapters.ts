/**
 * End-to-end webhook throughput of each adapter, side by side with that framework's bare route that
 * only reads the raw body and verifies the signature (the least any correct receiver must do). The
 * adapter side does everything the kit does per webhook: routing, request ID, verification, event
 * parsing, one store transaction (dedupe + order lookup) and the `handleWebhook` hook.
 *
 * Fairness: the server runs in a child process pinned to its own core (Linux `taskset`, with its
 * Web Crypto threads; BENCH_PIN=0 leaves scheduling to the OS) and autocannon in this one, on the
 * other core; every measurement gets a fresh child, the same warm-up, the same pre-signed requests
 * and the same key.
 * Each request carries a unique event ID (a pool signed up front, larger than any run sends), so the
 * adapter never takes the cheaper duplicate path; its store is the in-memory one, whose dedupe is a
 * Map lookup, so the numbers measure the adapter and the kit, not a database. Runs are bounded
 * (warm-up + measured seconds) and interleaved (bare, adapter / adapter, bare …); the ratio is the
 * median of the per-round paired ratios, of requests per second and of server CPU time per request
 * (the steadier of the two on a machine shared with other work).
 *
 * Environment: BENCH_FRAMEWORKS=koa,hono, BENCH_ROUNDS (3), BENCH_SECONDS (4), BENCH_POOL, BENCH_PIN.
 * To see where a side spends its time, see profile-adapters.ts.
 */
import { fork } from 'node:child_process';
import { once } from 'node:events';
import type { IncomingMessage, Server } from 'node:http';
import { fileURLToPath } from 'node:url';
import {
  createKeyring,
  createMarket,
  type Keyring,
  type ServiceClient,
  silentLogger,
  verifyWebhook,
} from '@bnpl-kit/core';
import { createMemoryStore, generateKeyPair, signWebhook } from '@bnpl-kit/core/testing';
import { type BenchModule, formatRate, median, printTable } from './harness.js';
import { load as loadPath } from './http-child.js';
import { LOAD_CPU, pinLoadGenerator, pinServer, SERVER_CPU, unpinLoadGenerator } from './pin.js';
import { serveForParent } from './servers/child.js';

const FRAMEWORKS = ['express', 'koa', 'hono'] as const;
export type Framework = (typeof FRAMEWORKS)[number];
const SELECTED = FRAMEWORKS.filter((f) => (process.env.BENCH_FRAMEWORKS ?? f).split(',').includes(f));
export type Kind = 'bare' | 'adapter';

const PUBLIC_BASE = 'https://market.example.com';
const PATH = '/v1/webhook';
const SIGNED_URL = `${PUBLIC_BASE}${PATH}`;
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const WARMUP_S = 1;
const DURATION_S = Number(process.env.BENCH_SECONDS ?? 4);
const CONNECTIONS = 32;
const POOL_SIZE = Number(process.env.BENCH_POOL ?? 120_000);

// ---------------------------------------------------------------- server side (child process)

function respondJson(status: number, body: unknown) {
  return { status, text: JSON.stringify(body) };
}

/** What every bare route does: verify, then acknowledge. */
async function verifyBare(keyring: Keyring, headers: Headers | IncomingMessage['headers'], body: Uint8Array) {
  try {
    await verifyWebhook({ url: SIGNED_URL, headers, body }, { keys: keyring });
    return respondJson(200, { received: true });
  } catch {
    return respondJson(401, { code: 'signature_invalid' });
  }
}

function readRaw(req: IncomingMessage): Promise<Uint8Array> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => resolve(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

const unusedService = new Proxy({} as ServiceClient, {
  get: () => () => Promise.reject(new Error('the benchmark never calls the service')),
});

async function serve(framework: Framework, kind: Kind, publicKey: string): Promise<Server> {
  const keyring = createKeyring(publicKey);
  await keyring.warmUp();
  const market = createMarket({
    config: {
      mode: 'sandbox',
      integrationMode: 'basic',
      appId: 'bench',
      publicBaseUrl: PUBLIC_BASE,
      servicePublicKey: publicKey,
    },
    hooks: {
      authenticateInternalAPIClient: async () => null,
      authenticateInternalUser: async () => null,
      getBNPLCallback: () => `${PUBLIC_BASE}/done`,
      handleWebhook: async () => {},
    },
    service: unusedService,
    store: createMemoryStore(),
    logger: silentLogger,
  });
  if (framework === 'express') {
    const { default: express } = await import('express');
    const { createBnplRouter } = await import('@bnpl-kit/express');
    const app = express();
    if (kind === 'adapter') app.use(createBnplRouter(market));
    else {
      app.post(PATH, express.raw({ type: () => true, limit: '256kb' }), async (req, res) => {
        const answer = await verifyBare(keyring, req.headers, req.body as Buffer);
        res.status(answer.status).type('application/json').send(answer.text);
      });
    }
    return app.listen(0, '127.0.0.1');
  }
  if (framework === 'koa') {
    const { default: Koa } = await import('koa');
    const { createBnplRouter } = await import('@bnpl-kit/koa');
    const app = new Koa();
    if (kind === 'adapter') app.use(createBnplRouter(market));
    else {
      app.use(async (ctx, next) => {
        if (ctx.method !== 'POST' || ctx.path !== PATH) return next();
        const answer = await verifyBare(keyring, ctx.req.headers, await readRaw(ctx.req));
        ctx.status = answer.status;
        ctx.type = 'application/json';
        ctx.body = answer.text;
      });
    }
    return app.listen(0, '127.0.0.1');
  }
  const { Hono } = await import('hono');
  const { serve: serveHono } = await import('@hono/node-server');
  const { createBnplRouter } = await import('@bnpl-kit/hono');
  const app = new Hono();
  if (kind === 'adapter') app.route('/', createBnplRouter(market));
  else {
    app.post(PATH, async (c) => {
      const answer = await verifyBare(keyring, c.req.raw.headers, new Uint8Array(await c.req.arrayBuffer()));
      return c.body(answer.text, answer.status as 200, { 'content-type': 'application/json' });
    });
  }
  return serveHono({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }) as Server;
}

async function childMain(): Promise<void> {
  const [, , , framework, kind, publicKey] = process.argv;
  // CPU time per request is the measure the noise of a shared machine cannot fake: the parent
  // marks the start of the measured window and asks for the CPU used since.
  await serveForParent(await serve(framework as Framework, kind as Kind, publicKey!));
}

// ---------------------------------------------------------------- load side (this process)

export interface SignedRequest {
  headers: Record<string, string>;
  body: Buffer;
}

export async function signPool(seed: Uint8Array): Promise<SignedRequest[]> {
  // Valid from now - 60 s to now + 540 s: the whole benchmark fits in the ±300 s window.
  const timestamp = new Date(Date.now() + 240_000);
  const pool: SignedRequest[] = new Array(POOL_SIZE);
  const batch = 2_000;
  for (let start = 0; start < POOL_SIZE; start += batch) {
    const signed = await Promise.all(
      Array.from({ length: Math.min(batch, POOL_SIZE - start) }, (_, k) =>
        signWebhook({
          url: SIGNED_URL,
          body: {
            type: 'BNPL_ORDER_STATUS_UPDATED',
            order_id: `ord_${(start + k) % 500}`,
            order_status: 'APPROVED',
          },
          // The seed bytes, not the PEM: the signer caches its imported key by seed identity.
          signingKey: seed,
          eventId: `evt_bench_${start + k}`,
          timestamp,
        }),
      ),
    );
    signed.forEach((s, k) => {
      pool[start + k] = { headers: s.headers, body: Buffer.from(s.body) };
    });
  }
  return pool;
}

interface Run {
  rps: number;
  p99: number;
  requests: number;
  bad: number;
  /** Server CPU (all threads) per request during the measured window. */
  cpuMicrosPerRequest: number;
  /** The main thread's share of it, where available. */
  mainCpuMicrosPerRequest: number | undefined;
}

export async function load(port: number, pool: SignedRequest[], seconds: number): Promise<Run> {
  const measured = await loadPath(port, PATH, pool, CONNECTIONS, seconds);
  return { ...measured, cpuMicrosPerRequest: 0, mainCpuMicrosPerRequest: undefined };
}

async function measure(
  framework: Framework,
  kind: Kind,
  publicKey: string,
  pool: SignedRequest[],
): Promise<Run> {
  const child = fork(fileURLToPath(import.meta.url), ['--serve', framework, kind, publicKey], {
    execArgv: process.execArgv,
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  try {
    // Pinned before it imports anything, so its libuv threads (where Web Crypto verifies) inherit
    // the core too: the load generator then never takes CPU from the server it measures.
    pinServer(child.pid);
    const [message] = (await once(child, 'message')) as [{ port: number }];
    // Warm-up uses the tail of the pool, the measurement the head: no ID is sent twice to one child.
    await load(message.port, pool.slice(pool.length / 2), WARMUP_S);
    child.send('mark');
    const measured = await load(message.port, pool.slice(0, pool.length / 2), DURATION_S);
    child.send('report');
    const [report] = (await once(child, 'message')) as [{ cpuMicros: number; mainCpuMicros?: number }];
    const perRequest = (micros: number) => micros / Math.max(1, measured.requests);
    return {
      ...measured,
      cpuMicrosPerRequest: perRequest(report.cpuMicros),
      mainCpuMicrosPerRequest:
        report.mainCpuMicros === undefined ? undefined : perRequest(report.mainCpuMicros),
    };
  } finally {
    child.kill();
    await once(child, 'exit');
  }
}

/** Interleaved rounds of one framework's two sides, summarised as one table row. */
async function compare(framework: Framework, publicKey: string, pool: SignedRequest[]) {
  const runs: Record<Kind, Run[]> = { bare: [], adapter: [] };
  for (let round = 0; round < ROUNDS; round++) {
    const order: Kind[] = round % 2 === 0 ? ['bare', 'adapter'] : ['adapter', 'bare'];
    for (const kind of order) runs[kind].push(await measure(framework, kind, publicKey, pool));
  }
  const all = [...runs.bare, ...runs.adapter];
  const bad = all.reduce((n, r) => n + r.bad, 0);
  const wrapped = all.some((r) => r.requests > pool.length / 2);
  const ratio = median(runs.adapter.map((r, i) => r.rps / runs.bare[i]!.rps));
  // The same ratio from server CPU time per request (what throughput is when the server's core is
  // the bottleneck), which a busy neighbour on the machine disturbs much less.
  const cpuRatio = median(
    runs.adapter.map((r, i) => runs.bare[i]!.cpuMicrosPerRequest / r.cpuMicrosPerRequest),
  );
  const both = (pick: (r: Run) => number, format = (n: number) => String(Math.round(n))) =>
    `${format(median(runs.bare.map(pick)))}/${format(median(runs.adapter.map(pick)))}`;
  return {
    framework,
    'bare req/s': formatRate(median(runs.bare.map((r) => r.rps))),
    'adapter req/s': formatRate(median(runs.adapter.map((r) => r.rps))),
    ratio: `${(ratio * 100).toFixed(1)} %`,
    'goal ≥ 85 %': ratio >= 0.85 ? 'yes' : 'NO',
    'CPU ratio': `${(cpuRatio * 100).toFixed(1)} %`,
    'CPU µs/req bare/adapter': both((r) => r.cpuMicrosPerRequest),
    'main thread µs/req': all.some((r) => r.mainCpuMicrosPerRequest === undefined)
      ? 'n/a'
      : both((r) => r.mainCpuMicrosPerRequest!),
    'p99 ms bare/adapter': both((r) => r.p99, String),
    notes: [bad > 0 ? `${bad} non-2xx/errors` : '', wrapped ? 'pool wrapped: raise BENCH_POOL' : '']
      .filter(Boolean)
      .join('; '),
  };
}

async function run(): Promise<void> {
  const keys = await generateKeyPair();
  const pinnedNow = pinLoadGenerator();
  try {
    console.log(
      `Signing ${POOL_SIZE.toLocaleString('en-US')} webhooks (unique event IDs); ${ROUNDS} rounds × ${WARMUP_S}+${DURATION_S} s per side, ${CONNECTIONS} connections, server in a child process${pinnedNow ? ` pinned to CPU ${SERVER_CPU} (load generator on CPU ${LOAD_CPU})` : ''}.`,
    );
    const pool = await signPool(keys.seed);
    const rows: Record<string, string>[] = [];
    for (const framework of SELECTED) rows.push(await compare(framework, keys.publicKey, pool));
    printTable(rows);
  } finally {
    unpinLoadGenerator();
  }
}

const bench: BenchModule = {
  title: 'End-to-end webhook throughput per adapter (vs. the bare framework route)',
  run,
};
export default bench;

if (process.argv[2] === '--serve') {
  process.on('SIGINT', () => process.exit(0));
  await childMain();
}

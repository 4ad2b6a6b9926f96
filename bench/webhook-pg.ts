/**
 * Webhook ingestion on PostgreSQL: the whole job (HTTP, verification, parsing, the database
 * effect) per adapter, side by side with a minimal hand-written receiver (servers/baseline-webhook.ts)
 * at 16 and 64 connections. Every measurement gets a fresh server child, the same pre-signed status
 * updates (unique event IDs) and the same database: the rows a run touched are put back before the
 * next one. Rounds interleave the candidates (rotating their order); ratios are the median of
 * per-round ratios against the baseline run in the same round.
 *
 * Candidates: `baseline` (one transaction: BEGIN, event INSERT … ON CONFLICT, guarded UPDATE,
 * COMMIT), `baseline-cte` (the same as one statement), `express`, `koa`, `hono` (the kit, no
 * `handleWebhook`: one statement) and `express+hook`, `koa+hook`, `hono+hook` (a no-op
 * `handleWebhook`: BEGIN with the statement, the hook, COMMIT). The hooked rows also have a p99
 * goal (issue 36: at most 1.3× the baseline's). `baseline-express`, `baseline-koa` and
 * `baseline-hono` are the baseline written as that framework's route: each kit row is also given
 * against its own framework's (the "vs own framework" columns), which separates what the framework
 * costs per request from what the kit adds on top of it.
 *
 * Environment: BENCH_DATABASE_URL (postgres://postgres@127.0.0.1:5432/test), BENCH_CANDIDATES (a
 * name with `@before` runs that server from the checkout at BENCH_BEFORE, see pg-rounds.ts),
 * BENCH_CONNECTIONS (16,64), BENCH_ROUNDS (3), BENCH_SECONDS (4), BENCH_ORDERS (1000), BENCH_POOL
 * (100000: half for the warm-up, up to 10 s, and half for the measured window, neither wrapping at
 * 4,000 webhooks/s), BENCH_WARMUP_MAX_SECONDS (10, see pg-rounds.ts), BENCH_PIN, BENCH_FROM_DIST (1:
 * server children import the built packages, see http-child.ts), BENCH_NODE_ENV (the children's
 * NODE_ENV, default production), BENCH_NODE_FLAGS and BENCH_HEAP_SAMPLE_OUT (servers/child.ts).
 */
import { fileURLToPath } from 'node:url';
import { generateKeyPair } from '@bnpl-kit/core/testing';
import { type BenchModule, printTable } from './harness.js';
import { type ChildSpec, type Measured, measureChild } from './http-child.js';
import {
  DATABASE_URL,
  type PgFixture,
  PUBLIC_BASE,
  SIGNED_URL,
  SignedPool,
  type SignedRequest,
  WEBHOOK_PATH,
} from './pg-fixture.js';
import {
  type BEFORE_SUFFIX,
  baseCandidate,
  FRAMEWORK_BASELINE,
  FRAMEWORK_BASELINES,
  frameworkPeer,
  interleave,
  ROUNDS,
  SECONDS,
  scriptFor,
  summarise,
  WARMUP,
  WARMUP_WORDS,
  withPgFixture,
} from './pg-rounds.js';
import { isPinned, LOAD_CPU, SERVER_CPU } from './pin.js';

export const CANDIDATES = [
  'baseline',
  'baseline-cte',
  ...FRAMEWORK_BASELINES,
  'express',
  'koa',
  'hono',
  'express+hook',
  'koa+hook',
  'hono+hook',
] as const;
export type Candidate = (typeof CANDIDATES)[number] | `${(typeof CANDIDATES)[number]}${typeof BEFORE_SUFFIX}`;

const list = (name: string, fallback: string) =>
  (process.env[name] ?? fallback).split(',').map((s) => s.trim());
export const POOL_SIZE = Number(process.env.BENCH_POOL ?? 100_000);

/** The suffix of a candidate with a no-op `handleWebhook`. */
const HOOKED = '+hook';
const P99_GOAL = { ratio: 1.3, covers: (candidate: Candidate) => baseCandidate(candidate).endsWith(HOOKED) };

const server = (name: string) => fileURLToPath(new URL(`./servers/${name}.ts`, import.meta.url));

export function childSpec(candidate: Candidate, fixture: PgFixture, publicKey: string): ChildSpec {
  const name = baseCandidate<(typeof CANDIDATES)[number]>(candidate);
  if (name === 'baseline' || name === 'baseline-cte') {
    return {
      script: scriptFor(candidate, server('baseline-webhook')),
      args: [DATABASE_URL, fixture.schema, publicKey, name === 'baseline' ? 'tx' : 'cte', SIGNED_URL],
    };
  }
  if (name.startsWith(FRAMEWORK_BASELINE)) {
    return {
      script: scriptFor(candidate, server('baseline-webhook')),
      args: [
        DATABASE_URL,
        fixture.schema,
        publicKey,
        'tx',
        SIGNED_URL,
        name.slice(FRAMEWORK_BASELINE.length),
      ],
    };
  }
  const [framework, variant] = name.endsWith(HOOKED)
    ? [name.slice(0, -HOOKED.length), 'hook']
    : [name, 'plain'];
  return {
    script: scriptFor(candidate, server('kit-webhook')),
    args: [framework, DATABASE_URL, fixture.schema, publicKey, variant, PUBLIC_BASE],
  };
}

/** One measurement, then the database put back as it was. */
export async function measureOnce(
  candidate: Candidate,
  fixture: PgFixture,
  publicKey: string,
  pool: SignedRequest[],
  connections: number,
): Promise<Measured> {
  const run = await measureChild(childSpec(candidate, fixture, publicKey), WEBHOOK_PATH, pool, {
    connections,
    warmup: WARMUP,
    seconds: SECONDS,
  });
  const half = Math.floor(pool.length / 2);
  await fixture.reset([...pool.slice(0, run.sent), ...pool.slice(half, half + run.warmupSent)]);
  return run;
}

export function describeSetup(connections: number[]): string {
  return (
    `${ROUNDS} interleaved rounds per candidate of ${WARMUP_WORDS} and ${SECONDS} s measured at ${connections.join(' and ')} connections; ` +
    `PostgreSQL at ${DATABASE_URL.replace(/:[^:@/]*@/, ':***@')}` +
    (isPinned() ? `; server child pinned to CPU ${SERVER_CPU}, load generator to CPU ${LOAD_CPU}` : '') +
    '. PG CPU counts every postgres process on the machine (other work included).'
  );
}

async function run(): Promise<void> {
  const candidates = list('BENCH_CANDIDATES', CANDIDATES.join(',')).filter((c): c is Candidate =>
    (CANDIDATES as readonly string[]).includes(baseCandidate(c)),
  );
  const connections = list('BENCH_CONNECTIONS', '16,64').map(Number);
  const orders = Number(process.env.BENCH_ORDERS ?? 1_000);
  const keys = await generateKeyPair();
  await withPgFixture(async (fixture) => {
    await fixture.seed(orders);
    const signed = new SignedPool(keys.seed, POOL_SIZE, orders);
    // A measurement takes at most the longest warm-up, the window, and a child's start and stop.
    const measurementMs = (WARMUP.maxSeconds + SECONDS + 30) * 1000;
    console.log(`${orders.toLocaleString('en-US')} orders; ${describeSetup(connections)}`);
    const rows: Record<string, string>[] = [];
    for (const c of connections) {
      const runs = await interleave(candidates, (candidate) =>
        signed
          .current(measurementMs)
          .then((pool) => measureOnce(candidate, fixture, keys.publicKey, pool, c)),
      );
      rows.push(...summarise(runs, { c: String(c) }, 'baseline', P99_GOAL, frameworkPeer));
    }
    printTable(rows);
  });
}

const bench: BenchModule = {
  title: 'Webhook ingestion on PostgreSQL per adapter (vs. a minimal hand-written receiver)',
  run,
};
export default bench;

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
 * `handleWebhook`: one statement) and `hono+hook` (a no-op `handleWebhook`: BEGIN, the statement,
 * the hook, COMMIT).
 *
 * Environment: BENCH_DATABASE_URL (postgres://postgres@127.0.0.1:5432/test), BENCH_CANDIDATES,
 * BENCH_CONNECTIONS (16,64), BENCH_ROUNDS (3), BENCH_SECONDS (4), BENCH_ORDERS (1000), BENCH_POOL
 * (30000), BENCH_PIN.
 */
import { fileURLToPath } from 'node:url';
import { generateKeyPair } from '@bnpl-kit/core/testing';
import { type BenchModule, formatRate, median, printTable } from './harness.js';
import { type ChildSpec, type Measured, measureChild } from './http-child.js';
import {
  DATABASE_URL,
  openPgFixture,
  type PgFixture,
  PUBLIC_BASE,
  SIGNED_URL,
  type SignedRequest,
  signStatusUpdates,
  WEBHOOK_PATH,
} from './pg-fixture.js';
import { isPinned, LOAD_CPU, pinLoadGenerator, SERVER_CPU, unpinLoadGenerator } from './pin.js';

export const CANDIDATES = ['baseline', 'baseline-cte', 'express', 'koa', 'hono', 'hono+hook'] as const;
export type Candidate = (typeof CANDIDATES)[number];

const list = (name: string, fallback: string) =>
  (process.env[name] ?? fallback).split(',').map((s) => s.trim());
export const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
export const SECONDS = Number(process.env.BENCH_SECONDS ?? 4);
export const WARMUP_SECONDS = 1;
export const POOL_SIZE = Number(process.env.BENCH_POOL ?? 30_000);

const server = (name: string) => fileURLToPath(new URL(`./servers/${name}.ts`, import.meta.url));

export function childSpec(candidate: Candidate, fixture: PgFixture, publicKey: string): ChildSpec {
  if (candidate === 'baseline' || candidate === 'baseline-cte') {
    return {
      script: server('baseline-webhook'),
      args: [DATABASE_URL, fixture.schema, publicKey, candidate === 'baseline' ? 'tx' : 'cte', SIGNED_URL],
    };
  }
  const [framework, variant] = candidate === 'hono+hook' ? ['hono', 'hook'] : [candidate, 'plain'];
  return {
    script: server('kit-webhook'),
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
    warmupSeconds: WARMUP_SECONDS,
    seconds: SECONDS,
  });
  const half = Math.floor(pool.length / 2);
  await fixture.reset([...pool.slice(0, run.sent), ...pool.slice(half, half + run.warmupSent)]);
  return run;
}

/** Interleaved rounds of every candidate at one concurrency: runs[candidate][round]. */
export async function interleave(
  candidates: readonly Candidate[],
  run: (candidate: Candidate) => Promise<Measured>,
): Promise<Map<Candidate, Measured[]>> {
  const runs = new Map<Candidate, Measured[]>(candidates.map((c) => [c, []]));
  for (let round = 0; round < ROUNDS; round++) {
    for (let k = 0; k < candidates.length; k++) {
      const candidate = candidates[(k + round) % candidates.length]!;
      runs.get(candidate)!.push(await run(candidate));
    }
  }
  return runs;
}

const pct = (x: number) => `${(x * 100).toFixed(0)} %`;
const micros = (values: (number | undefined)[]) =>
  values.some((v) => v === undefined) ? 'n/a' : String(Math.round(median(values as number[])));

export function summarise(
  runs: Map<Candidate, Measured[]>,
  label: Record<string, string>,
  reference: Candidate = 'baseline',
): Record<string, string>[] {
  const base = runs.get(reference);
  const cte = runs.get('baseline-cte');
  return [...runs].map(([candidate, rs]) => {
    const rps = rs.map((r) => r.rps);
    const paired = (other: Measured[] | undefined, pick: (r: Measured) => number) =>
      other ? median(rs.map((r, i) => pick(r) / pick(other[i]!))) : undefined;
    const ratio = paired(base, (r) => r.rps);
    const ratioCte = paired(cte, (r) => r.rps);
    const p99Ratio = paired(base, (r) => r.p99);
    // Requests per CPU-second of server + PostgreSQL together, against the baseline's: what the
    // throughput ratio would be on a machine these two had to themselves (steadier than wall time
    // when other work shares the cores; PG CPU includes that other work's queries, so it is noisy too).
    const cpuRatio = paired(base, (r) =>
      r.pgCpuMicrosPerRequest === undefined
        ? Number.NaN
        : 1 / (r.cpuMicrosPerRequest + r.pgCpuMicrosPerRequest),
    );
    const bad = rs.reduce((n, r) => n + r.bad, 0);
    return {
      ...label,
      candidate,
      'req/s min/med/max': `${formatRate(Math.min(...rps))}/${formatRate(median(rps))}/${formatRate(Math.max(...rps))}`,
      [`vs ${reference}`]: ratio === undefined ? '' : pct(ratio),
      'goal ≥ 85 %':
        candidate.startsWith('baseline') || ratio === undefined ? '' : ratio >= 0.85 ? 'yes' : 'NO',
      'vs cte': ratioCte === undefined ? '' : pct(ratioCte),
      'CPU ratio': cpuRatio === undefined || Number.isNaN(cpuRatio) ? '' : pct(cpuRatio),
      'p99 ms': String(median(rs.map((r) => r.p99))),
      'p99 vs base': p99Ratio === undefined ? '' : `${p99Ratio.toFixed(2)}×`,
      'server CPU µs/req': micros(rs.map((r) => r.cpuMicrosPerRequest)),
      'main thread µs/req': micros(rs.map((r) => r.mainCpuMicrosPerRequest)),
      'PG CPU µs/req': micros(rs.map((r) => r.pgCpuMicrosPerRequest)),
      notes: [
        bad > 0 ? `${bad} non-2xx/errors` : '',
        rs.some((r) => r.wrapped) ? 'pool wrapped: raise BENCH_POOL' : '',
      ]
        .filter(Boolean)
        .join('; '),
    };
  });
}

export function describeSetup(connections: number[]): string {
  return (
    `${ROUNDS} interleaved rounds × ${WARMUP_SECONDS}+${SECONDS} s per candidate at ${connections.join(' and ')} connections; ` +
    `PostgreSQL at ${DATABASE_URL.replace(/:[^:@/]*@/, ':***@')}` +
    (isPinned() ? `; server child pinned to CPU ${SERVER_CPU}, load generator to CPU ${LOAD_CPU}` : '') +
    '. PG CPU counts every postgres process on the machine (other work included).'
  );
}

async function run(): Promise<void> {
  const candidates = list('BENCH_CANDIDATES', CANDIDATES.join(',')).filter((c): c is Candidate =>
    (CANDIDATES as readonly string[]).includes(c),
  );
  const connections = list('BENCH_CONNECTIONS', '16,64').map(Number);
  const orders = Number(process.env.BENCH_ORDERS ?? 1_000);
  const keys = await generateKeyPair();
  const fixture = await openPgFixture();
  pinLoadGenerator();
  try {
    await fixture.seed(orders);
    const pool = await signStatusUpdates(keys.seed, POOL_SIZE, orders);
    console.log(`${orders.toLocaleString('en-US')} orders; ${describeSetup(connections)}`);
    const rows: Record<string, string>[] = [];
    for (const c of connections) {
      const runs = await interleave(candidates, (candidate) =>
        measureOnce(candidate, fixture, keys.publicKey, pool, c),
      );
      rows.push(...summarise(runs, { c: String(c) }));
    }
    printTable(rows);
  } finally {
    unpinLoadGenerator();
    await fixture.close();
  }
}

const bench: BenchModule = {
  title: 'Webhook ingestion on PostgreSQL per adapter (vs. a minimal hand-written receiver)',
  run,
};
export default bench;

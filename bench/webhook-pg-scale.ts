/**
 * Webhook ingestion on PostgreSQL as the tables grow, and with two server processes on one
 * database.
 *
 * Scale: the same status updates into 1k, 100k and 1M seeded orders (with as many old processed
 * events and history rows), the kit (hono) next to the minimal baseline in interleaved rounds at 64
 * connections; the goal is that the kit's throughput falls by at most 10 % from 1k to 1M.
 *
 * Two processes: two kit servers (hono) on one database, each loaded at 32 connections with the
 * same signed events in the same order, so every event is delivered twice, concurrently, to two
 * processes with their own pools. Dedupe is exact when every event ID is recorded exactly once and
 * every status change has exactly one history row.
 *
 * Environment: BENCH_SCALE_ORDERS (1000,100000,1000000), plus webhook-pg's variables.
 */
import { generateKeyPair } from '@bnpl-kit/core/testing';
import { type BenchModule, formatRate, median, printTable } from './harness.js';
import { load, startChild } from './http-child.js';
import { openPgFixture, signStatusUpdates, WEBHOOK_PATH } from './pg-fixture.js';
import { pinLoadGenerator, unpinLoadGenerator } from './pin.js';
import {
  type Candidate,
  childSpec,
  describeSetup,
  interleave,
  measureOnce,
  POOL_SIZE,
  SECONDS,
  summarise,
} from './webhook-pg.js';

const SIZES = (process.env.BENCH_SCALE_ORDERS ?? '1000,100000,1000000').split(',').map(Number);
const CONNECTIONS = 64;

async function scale(publicKey: string, seed: Uint8Array): Promise<void> {
  const fixture = await openPgFixture();
  try {
    const rows: Record<string, string>[] = [];
    let first: number | undefined;
    for (const size of SIZES) {
      const seeding = performance.now();
      await fixture.seed(size);
      const seeded = ((performance.now() - seeding) / 1000).toFixed(0);
      const pool = await signStatusUpdates(seed, POOL_SIZE, size, `evt_${size}`);
      const candidates: Candidate[] = ['baseline', 'hono'];
      const runs = await interleave(candidates, (candidate) =>
        measureOnce(candidate, fixture, publicKey, pool, CONNECTIONS),
      );
      const kit = median(runs.get('hono')!.map((r) => r.rps));
      first ??= kit;
      for (const row of summarise(runs, { orders: size.toLocaleString('en-US') })) {
        rows.push({
          ...row,
          'vs 1k (kit)': row.candidate === 'hono' ? `${((kit / first) * 100).toFixed(0)} %` : '',
          'seed s': seeded,
        });
      }
    }
    printTable(rows);
  } finally {
    await fixture.close();
  }
}

async function twoProcesses(publicKey: string, seed: Uint8Array): Promise<void> {
  const fixture = await openPgFixture();
  const orders = 1_000;
  try {
    await fixture.seed(orders);
    const pool = await signStatusUpdates(seed, POOL_SIZE, orders, 'evt_two');
    const spec = childSpec('hono', fixture, publicKey);
    const servers = await Promise.all([startChild(spec), startChild(spec)]);
    try {
      const loads = await Promise.all(servers.map((s) => load(s.port, WEBHOOK_PATH, pool, 32, SECONDS)));
      const sent = pool.slice(0, Math.max(...loads.map((l) => l.sent)));
      const ids = sent.map((r) => r.eventId);
      const [recorded] = await fixture.query<{ n: number }>(
        'SELECT count(*)::int AS n FROM bnpl_processed_events WHERE event_id = ANY($1::text[])',
        [ids],
      );
      const [doubled] = await fixture.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM (
           SELECT source FROM bnpl_order_status_history WHERE source = ANY($1::text[])
            GROUP BY source HAVING count(*) > 1) d`,
        [ids.map((id) => `webhook:${id}`)],
      );
      const bad = loads.reduce((n, l) => n + l.bad, 0);
      // Requests still in flight when the load stops (at most the 64 connections) may never have
      // reached the database; every other sent event must be recorded, and none applied twice.
      const inFlight = ids.length - recorded!.n;
      const exact = doubled!.n === 0 && bad === 0 && inFlight >= 0 && inFlight <= 64;
      printTable([
        {
          setup: `2 × hono, 32 connections each, ${SECONDS} s`,
          'req/s (sum)': formatRate(loads.reduce((n, l) => n + l.rps, 0)),
          'p99 ms': loads.map((l) => String(l.p99)).join(' / '),
          'events sent (each twice)': ids.length.toLocaleString('en-US'),
          'recorded once': recorded!.n.toLocaleString('en-US'),
          'cut off in flight': String(inFlight),
          'events with 2 history rows': String(doubled!.n),
          'non-2xx': String(bad),
          'dedupe exact': exact ? 'yes' : 'NO',
        },
      ]);
    } finally {
      await Promise.all(servers.map((s) => s.stop()));
    }
  } finally {
    await fixture.close();
  }
}

const bench: BenchModule = {
  title: 'Webhook ingestion on PostgreSQL at 1k / 100k / 1M orders, and two processes on one database',
  async run() {
    const keys = await generateKeyPair();
    pinLoadGenerator();
    try {
      console.log(`Scale: ${describeSetup([CONNECTIONS])}`);
      await scale(keys.publicKey, keys.seed);
    } finally {
      unpinLoadGenerator();
    }
    // Unpinned: two servers need both cores.
    console.log('\nTwo server processes, one PostgreSQL (unpinned):');
    await twoProcesses(keys.publicKey, keys.seed);
  },
};
export default bench;

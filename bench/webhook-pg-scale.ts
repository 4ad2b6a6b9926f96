/**
 * Webhook ingestion on PostgreSQL as the tables grow, and with two server processes on one
 * database.
 *
 * Scale: the same status updates into 1k, 100k and 1M seeded orders (with as many old processed
 * events and history rows), the kit (hono) next to the minimal baseline in interleaved rounds at 64
 * connections, with min/median/max over the rounds and CPU per webhook (server and PostgreSQL); the
 * goal is that the kit's throughput falls by at most 10 % from 1k to 1M, read from its req/s, its
 * CPU per webhook and its ratio to the baseline (the steadier two on a shared machine).
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
import { load, type Measured, startChild } from './http-child.js';
import { openPgFixture, signStatusUpdates, WEBHOOK_PATH } from './pg-fixture.js';
import { interleave, SECONDS, summarise } from './pg-rounds.js';
import { pinLoadGenerator, unpinLoadGenerator } from './pin.js';
import { type Candidate, childSpec, describeSetup, measureOnce, POOL_SIZE } from './webhook-pg.js';

const SIZES = (process.env.BENCH_SCALE_ORDERS ?? '1000,100000,1000000').split(',').map(Number);
const CONNECTIONS = 64;

/** The kit's median req/s, median server+PG CPU µs per webhook and median per-round ratio to the baseline. */
function scaleFigures(kit: Measured[], base: Measured[]) {
  return {
    rps: median(kit.map((r) => r.rps)),
    cpu: median(kit.map((r) => r.cpuMicrosPerRequest + (r.pgCpuMicrosPerRequest ?? Number.NaN))),
    ratio: median(kit.map((r, i) => r.rps / base[i]!.rps)),
  };
}

async function scale(publicKey: string, seed: Uint8Array): Promise<void> {
  const fixture = await openPgFixture();
  try {
    const rows: Record<string, string>[] = [];
    let first: { rps: number; cpu: number; ratio: number } | undefined;
    for (const size of SIZES) {
      const seeding = performance.now();
      await fixture.seed(size);
      const seeded = ((performance.now() - seeding) / 1000).toFixed(0);
      const pool = await signStatusUpdates(seed, POOL_SIZE, size, `evt_${size}`);
      const candidates: Candidate[] = ['baseline', 'hono'];
      const runs = await interleave(candidates, (candidate) =>
        measureOnce(candidate, fixture, publicKey, pool, CONNECTIONS),
      );
      const kit = scaleFigures(runs.get('hono')!, runs.get('baseline')!);
      first ??= kit;
      const pct = (x: number) => `${(x * 100).toFixed(0)} %`;
      for (const row of summarise(runs, { orders: size.toLocaleString('en-US') }, 'baseline')) {
        const isKit = row.candidate === 'hono';
        rows.push({
          ...row,
          // Three views of "did the kit slow down as the tables grew": its req/s (the machine's
          // mood included), its server+PG CPU per webhook (steadier), and its ratio to the
          // baseline measured in the same rounds (the baseline does the same lookups by key).
          'kit req/s vs first': isKit ? pct(kit.rps / first.rps) : '',
          'kit CPU/req vs first': isKit ? pct(kit.cpu / first.cpu) : '',
          'kit ratio vs first': isKit ? pct(kit.ratio / first.ratio) : '',
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

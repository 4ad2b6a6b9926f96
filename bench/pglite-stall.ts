/**
 * Event-loop stalls of the embedded stack (market + PGlite store + persistent sandbox in one
 * process, as a reference server in sandbox mode runs): each candidate server takes the same
 * number of order creations (BENCH_STALL_ORDERS, 3000) at 16 connections, and reports its worst
 * event-loop delay and the 99th percentile (`monitorEventLoopDelay`). The sandbox's records grow
 * with every order, so a cost that grows with them shows as a worst delay that grows with the
 * run. Compare candidates side by side, as a ratio: absolute milliseconds on a shared machine say
 * little. `embedded@before` runs the same server from the checkout at BENCH_BEFORE.
 *
 * Environment: BENCH_STALL_ORDERS, BENCH_ROUNDS, BENCH_CANDIDATES (embedded,embedded@before).
 */
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { wireOrder } from '@bnpl-kit/core/testing';
import autocannon from 'autocannon';
import { type BenchModule, printTable } from './harness.js';
import { startChild } from './http-child.js';
import * as rounds from './pg-rounds.js';

const ORDERS = Number(process.env.BENCH_STALL_ORDERS ?? 3000);
const script = fileURLToPath(new URL('./servers/embedded-pglite.ts', import.meta.url));

interface Stall {
  maxMs: number;
  p99Ms: number;
  bad: number;
}

async function measure(candidate: string, round: number): Promise<Stall> {
  const child = await startChild({ script: rounds.scriptFor(candidate, script), args: [] });
  try {
    let next = 0;
    const prefix = `ref_${process.pid}_${round}_${candidate.replace(/\W/g, '')}`;
    const result = await autocannon({
      url: `http://127.0.0.1:${child.port}`,
      connections: 16,
      amount: ORDERS,
      requests: [
        {
          method: 'POST',
          path: '/v1/orders',
          setupRequest: (request) => ({
            ...request,
            headers: { authorization: 'Bearer bench-market-token', 'content-type': 'application/json' },
            body: JSON.stringify(wireOrder({ reference_id: `${prefix}_${next++}` })),
          }),
        },
      ],
    });
    const reply = once(child.process, 'message');
    child.process.send('delay');
    const [delay] = (await reply) as [{ maxMs: number; p99Ms: number }];
    return { ...delay, bad: result.non2xx + result.errors + result.timeouts };
  } finally {
    await child.stop();
  }
}

async function run(): Promise<void> {
  const candidates = (process.env.BENCH_CANDIDATES ?? 'embedded').split(',');
  console.log(
    `${rounds.ROUNDS} interleaved rounds × ${ORDERS} orders per candidate at 16 connections; ` +
      'worst and p99 event-loop delay of the server, as a ratio to the first candidate.',
  );
  const results = new Map<string, Stall[]>(candidates.map((c) => [c, []]));
  for (let round = 0; round < rounds.ROUNDS; round++) {
    const order = candidates.map((_, i) => candidates[(i + round) % candidates.length]!);
    for (const candidate of order) results.get(candidate)!.push(await measure(candidate, round));
  }
  const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
  const first = results.get(candidates[0]!)!;
  const baseMax = median(first.map((s) => s.maxMs));
  const baseP99 = median(first.map((s) => s.p99Ms));
  printTable(
    candidates.map((candidate) => {
      const stalls = results.get(candidate)!;
      const max = median(stalls.map((s) => s.maxMs));
      const p99 = median(stalls.map((s) => s.p99Ms));
      return {
        candidate,
        'max delay (median ms)': max.toFixed(0),
        'max ÷ first': (max / baseMax).toFixed(2),
        'p99 delay (median ms)': p99.toFixed(0),
        'p99 ÷ first': (p99 / baseP99).toFixed(2),
        'non-2xx': String(stalls.reduce((sum, s) => sum + s.bad, 0)),
      };
    }),
  );
}

const bench: BenchModule = { title: 'Event-loop stalls of the embedded PGlite stack under order load', run };
export default bench;

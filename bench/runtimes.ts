/**
 * Webhook verification speed per runtime, next to Node's: the same bundle (tools/runtimes'
 * src/app.ts) on Node, Bun, Deno and workerd, each from its npm binary. Timed from outside, over
 * HTTP, because workerd freezes clocks inside a request: a request that verifies the first valid
 * shared vector N times, minus one that verifies none, median of interleaved rounds. Keyring
 * default backend (`auto`: Web Crypto Ed25519 on all four).
 *
 * Environment: BENCH_RUNTIME_VERIFIES (2000), BENCH_RUNTIME_ROUNDS (7).
 */
import { RUNTIMES, type RunningRuntime, startRuntime } from '@bnpl-kit/runtimes';
import { type BenchModule, formatRate, median, printTable } from './harness.js';

const N = Number(process.env.BENCH_RUNTIME_VERIFIES ?? 2000);
const ROUNDS = Number(process.env.BENCH_RUNTIME_ROUNDS ?? 7);

async function timed(runtime: RunningRuntime, n: number): Promise<number> {
  const started = performance.now();
  const response = await fetch(`${runtime.origin}/__verify?n=${n}`, { method: 'POST' });
  if (response.status !== 204) throw new Error(`${runtime.runtime}: /__verify answered ${response.status}`);
  return performance.now() - started;
}

const bench: BenchModule = {
  title: `Webhook verify per runtime (${N} verifies per request, median of ${ROUNDS} rounds)`,
  async run() {
    const running: RunningRuntime[] = [];
    try {
      for (const name of RUNTIMES) running.push(await startRuntime(name));
      for (const runtime of running) await timed(runtime, N); // warm-up: JIT, key import
      const samples = new Map<string, { full: number[]; empty: number[] }>(
        running.map((r) => [r.runtime, { full: [], empty: [] }]),
      );
      for (let round = 0; round < ROUNDS; round++) {
        for (const runtime of running) {
          samples.get(runtime.runtime)!.full.push(await timed(runtime, N));
          samples.get(runtime.runtime)!.empty.push(await timed(runtime, 0));
        }
      }
      const perSecond = new Map(
        [...samples].map(([name, s]) => [name, (N * 1000) / (median(s.full) - median(s.empty))]),
      );
      const node = perSecond.get('node')!;
      printTable(
        [...perSecond].map(([name, rate]) => ({
          runtime: name,
          'verifies/s': formatRate(rate),
          'vs Node': `${(rate / node).toFixed(2)}×`,
        })),
      );
    } finally {
      await Promise.all(running.map((r) => r.close()));
    }
  },
};

export default bench;

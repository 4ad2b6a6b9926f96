/**
 * What the PostgreSQL benchmarks (webhook-pg, webhook-pg-scale, orders-pg) share: interleaved
 * rounds of whole server runs, the summary row of each candidate against the baseline measured in
 * the same rounds, and the pinned load generator around a fixture schema that is always dropped.
 */
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { formatRate, median } from './harness.js';
import type { Measured } from './http-child.js';
import { openPgFixture, type PgFixture } from './pg-fixture.js';
import { pinLoadGenerator, unpinLoadGenerator } from './pin.js';
import { ROUTE_FRAMEWORKS } from './servers/hand-written-route.js';
import type { WarmUp } from './warm-up.js';

export const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
export const SECONDS = Number(process.env.BENCH_SECONDS ?? 4);
/** Until the rate stops rising (warm-up.ts): BENCH_WARMUP_MAX_SECONDS caps it. */
export const WARMUP: WarmUp = {
  sliceSeconds: 1,
  minSeconds: 2,
  maxSeconds: Number(process.env.BENCH_WARMUP_MAX_SECONDS ?? 10),
};
/** The setup line's words for `WARMUP`. */
export const WARMUP_WORDS = `a warm-up until the rate stops rising (${WARMUP.sliceSeconds} s slices, ${WARMUP.minSeconds}–${WARMUP.maxSeconds} s)`;

/**
 * Interleaved rounds of every candidate (A B C, B C A, C A B…), so a busy neighbour or a CPU
 * frequency change hits every candidate alike: runs[candidate][round].
 */
export async function interleave<C extends string>(
  candidates: readonly C[],
  run: (candidate: C) => Promise<Measured>,
): Promise<Map<C, Measured[]>> {
  const runs = new Map<C, Measured[]>(candidates.map((c) => [c, []]));
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
const minMedMax = (values: number[], format: (n: number) => string) =>
  `${format(Math.min(...values))}/${format(median(values))}/${format(Math.max(...values))}`;

/** A tail-latency goal: the median of per-round p99 ratios at most `ratio`, for the candidates it covers. */
export interface P99Goal<C extends string> {
  ratio: number;
  covers(candidate: C): boolean;
}

/**
 * One row per candidate: req/s min/median/max, the median of per-round ratios against the
 * reference (min/median/max too), p99 (and whether it meets `p99Goal`, when given), and CPU per
 * request of the server, of PostgreSQL and (when measured) of the service behind the server.
 */
export function summarise<C extends string>(
  runs: Map<C, Measured[]>,
  label: Record<string, string>,
  reference: C,
  p99Goal?: P99Goal<C>,
  /** A second reference per candidate (its framework's own baseline), when measured in the same rounds. */
  peerOf?: (candidate: C) => C | undefined,
): Record<string, string>[] {
  const base = runs.get(reference);
  const withService = [...runs.values()].some((rs) =>
    rs.some((r) => r.sideCpuMicrosPerRequest !== undefined),
  );
  return [...runs].map(([candidate, rs]) => {
    const perRound = (pick: (r: Measured) => number) =>
      base ? rs.map((r, i) => pick(r) / pick(base[i]!)) : undefined;
    const ratios = perRound((r) => r.rps);
    const ratio = ratios && median(ratios);
    const p99Ratio = perRound((r) => r.p99);
    // Requests per CPU-second of everything the request costs on this machine (server, PostgreSQL,
    // and the service when measured), against the baseline's: what the throughput ratio would be
    // if these processes had the machine to themselves. Steadier than wall time when other work
    // shares the cores; PG CPU includes that other work's queries, so it is noisy too.
    const cpuRatios = perRound((r) =>
      r.pgCpuMicrosPerRequest === undefined
        ? Number.NaN
        : 1 / (r.cpuMicrosPerRequest + r.pgCpuMicrosPerRequest + (r.sideCpuMicrosPerRequest ?? 0)),
    );
    const cpuRatio = cpuRatios && median(cpuRatios);
    const totalCpu = rs.map((r) =>
      r.pgCpuMicrosPerRequest === undefined
        ? undefined
        : r.cpuMicrosPerRequest + r.pgCpuMicrosPerRequest + (r.sideCpuMicrosPerRequest ?? 0),
    );
    const peer = peerOf?.(candidate);
    const peerRuns = peer === undefined ? undefined : runs.get(peer);
    const againstPeer = (pick: (r: Measured) => number) =>
      peerRuns ? median(rs.map((r, i) => pick(r) / pick(peerRuns[i]!))) : undefined;
    const peerRatio = againstPeer((r) => r.rps);
    const peerP99 = againstPeer((r) => r.p99);
    const bad = rs.reduce((n, r) => n + r.bad, 0);
    const isReference = candidate === reference;
    // A run that answered errors measured something else (a refusal is cheap): no verdict from it.
    const errored = bad > 0 || (base?.some((r) => r.bad > 0) ?? false);
    const verdict = (met: boolean) => (errored ? 'n/a: errors' : met ? 'yes' : 'NO');
    return {
      ...label,
      candidate,
      'req/s min/med/max': minMedMax(
        rs.map((r) => r.rps),
        formatRate,
      ),
      [`vs ${reference} min/med/max`]: ratios === undefined || isReference ? '' : minMedMax(ratios, pct),
      'goal ≥ 85 %': isReference || ratio === undefined ? '' : verdict(ratio >= 0.85),
      'CPU ratio': cpuRatio === undefined || Number.isNaN(cpuRatio) || isReference ? '' : pct(cpuRatio),
      'p99 ms': String(median(rs.map((r) => r.p99))),
      'p99 vs base': p99Ratio === undefined || isReference ? '' : `${median(p99Ratio).toFixed(2)}×`,
      ...(p99Goal === undefined
        ? {}
        : {
            [`p99 goal ≤ ${p99Goal.ratio}×`]:
              p99Ratio === undefined || isReference || !p99Goal.covers(candidate)
                ? ''
                : verdict(median(p99Ratio) <= p99Goal.ratio),
          }),
      ...(peerOf === undefined
        ? {}
        : {
            'vs own framework':
              peerRatio === undefined
                ? ''
                : peerRuns!.some((r) => r.bad > 0)
                  ? 'n/a: errors'
                  : `${pct(peerRatio)} (${verdict(peerRatio >= 0.85)})`,
            'p99 vs own fw': peerP99 === undefined ? '' : `${peerP99.toFixed(2)}×`,
          }),
      'server CPU µs/req': micros(rs.map((r) => r.cpuMicrosPerRequest)),
      'main thread µs/req': micros(rs.map((r) => r.mainCpuMicrosPerRequest)),
      ...(withService ? { 'service CPU µs/req': micros(rs.map((r) => r.sideCpuMicrosPerRequest)) } : {}),
      'PG CPU µs/req': micros(rs.map((r) => r.pgCpuMicrosPerRequest)),
      // Everything one request costs on this machine: the sum the CPU ratio compares.
      'total CPU µs/req': micros(totalCpu),
      'warm-up s': String(median(rs.map((r) => r.warmupSeconds))),
      'DB trips/req': rs.some((r) => r.roundTripsPerRequest === undefined)
        ? 'n/a'
        : median(rs.map((r) => r.roundTripsPerRequest!)).toFixed(2),
      notes: [
        bad > 0 ? `${bad} non-2xx/errors` : '',
        rs.some((r) => r.wrapped) ? 'pool wrapped: raise BENCH_POOL' : '',
        rs.some((r) => !r.warmupSteady)
          ? 'still warming up when measured: raise BENCH_WARMUP_MAX_SECONDS (or BENCH_POOL)'
          : '',
      ]
        .filter(Boolean)
        .join('; '),
    };
  });
}

/**
 * `<candidate>@before` runs the same server script from another checkout (BENCH_BEFORE, e.g. the
 * main branch's worktree) in the same interleaved rounds: a change measured side by side with
 * what it replaces, not against a number from another hour of the machine.
 */
export const BEFORE_SUFFIX = '@before';

export function scriptFor(candidate: string, script: string): string {
  if (!candidate.endsWith(BEFORE_SUFFIX)) return script;
  const before = process.env.BENCH_BEFORE;
  if (!before) throw new Error(`${candidate} needs BENCH_BEFORE=<another checkout of this repository>`);
  return join(before, relative(join(dirname(fileURLToPath(import.meta.url)), '..'), script));
}

/** The candidate without its `@before` suffix. */
export function baseCandidate<C extends string>(candidate: string): C {
  return (candidate.endsWith(BEFORE_SUFFIX) ? candidate.slice(0, -BEFORE_SUFFIX.length) : candidate) as C;
}

/** The prefix of a baseline written as a framework's own route (`baseline-express`, …). */
export const FRAMEWORK_BASELINE = 'baseline-';

/** Every baseline written as a framework's own route, one per framework hand-written-route.ts serves. */
export const FRAMEWORK_BASELINES = ROUTE_FRAMEWORKS.map(
  (framework) => `${FRAMEWORK_BASELINE}${framework}` as const,
) as readonly `${typeof FRAMEWORK_BASELINE}${(typeof ROUTE_FRAMEWORKS)[number]}`[];

/**
 * A kit candidate's own framework's baseline (`express+hook` → `baseline-express`), which the
 * "vs own framework" columns compare it with; none for a baseline.
 */
export function frameworkPeer<C extends string>(candidate: C): C | undefined {
  const name = baseCandidate<string>(candidate);
  if (name.startsWith('baseline')) return undefined;
  return `${FRAMEWORK_BASELINE}${name.replace(/\+hook$/, '')}` as C;
}

/** Runs `work` with the load generator pinned and a fresh fixture schema, dropped afterwards. */
export async function withPgFixture<T>(work: (fixture: PgFixture) => Promise<T>): Promise<T> {
  const fixture = await openPgFixture();
  pinLoadGenerator();
  try {
    return await work(fixture);
  } finally {
    unpinLoadGenerator();
    await fixture.close();
  }
}

/**
 * A tiny throughput harness. Candidates run in interleaved rounds (A B C, B C A, C A B, …) so that
 * noise from other processes, GC and CPU frequency hits every candidate alike; each round keeps
 * `concurrency` operations in flight, as a server under load would. The reported rate is the
 * median over rounds, which shrugs off a single disturbed round.
 *
 * Besides wall-clock throughput each round records operations per CPU-second of this process (all
 * threads, so Web Crypto's worker threads count too). On a shared machine wall-clock rates swing
 * with whatever else runs; CPU cost per operation barely does, and when the machine is ours alone
 * throughput is cores ÷ CPU cost, so the CPU-based ratio is the steadier estimate of overhead.
 */

export interface Candidate {
  name: string;
  op: () => Promise<unknown> | unknown;
}

export interface Measurement {
  name: string;
  /** Median wall-clock operations per second. */
  opsPerSecond: number;
  /** Median operations per CPU-second of this process. */
  opsPerCpuSecond: number;
  rounds: number[];
  cpuRounds: number[];
}

export interface MeasureOptions {
  rounds: number;
  roundMs: number;
  concurrency: number;
}

async function batch(op: Candidate['op'], concurrency: number): Promise<void> {
  const pending: (Promise<unknown> | unknown)[] = new Array(concurrency);
  for (let i = 0; i < concurrency; i++) pending[i] = op();
  await Promise.all(pending);
}

async function round(op: Candidate['op'], options: MeasureOptions): Promise<{ wall: number; cpu: number }> {
  let ops = 0;
  const cpuStart = process.cpuUsage();
  const start = performance.now();
  const end = start + options.roundMs;
  let now = start;
  while (now < end) {
    await batch(op, options.concurrency);
    ops += options.concurrency;
    now = performance.now();
  }
  const cpu = process.cpuUsage(cpuStart);
  return { wall: (ops * 1000) / (now - start), cpu: (ops * 1e6) / Math.max(1, cpu.user + cpu.system) };
}

export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

export async function measureInterleaved(
  candidates: Candidate[],
  options: MeasureOptions,
): Promise<Measurement[]> {
  // Warm-up: JIT, key imports and lazily built caches must not count against the first candidate.
  for (const candidate of candidates) await round(candidate.op, { ...options, roundMs: options.roundMs / 4 });
  const rates = candidates.map(() => [] as number[]);
  const cpuRates = candidates.map(() => [] as number[]);
  for (let r = 0; r < options.rounds; r++) {
    for (let k = 0; k < candidates.length; k++) {
      const index = (k + r) % candidates.length;
      const { wall, cpu } = await round(candidates[index]!.op, options);
      rates[index]!.push(wall);
      cpuRates[index]!.push(cpu);
    }
  }
  return candidates.map((candidate, i) => ({
    name: candidate.name,
    opsPerSecond: median(rates[i]!),
    opsPerCpuSecond: median(cpuRates[i]!),
    rounds: rates[i]!,
    cpuRounds: cpuRates[i]!,
  }));
}

/**
 * Median over rounds of `a / b`, pairing each round of `a` with the round of `b` run right next to
 * it: a ratio of two rates measured seconds apart would mostly measure the machine's mood.
 */
export function pairedRatio(a: Measurement, b: Measurement, by: 'wall' | 'cpu' = 'wall'): number {
  const [x, y] = by === 'wall' ? [a.rounds, b.rounds] : [a.cpuRounds, b.cpuRounds];
  return median(x.map((rate, i) => rate / y[i]!));
}

export function formatRate(opsPerSecond: number): string {
  return Math.round(opsPerSecond).toLocaleString('en-US');
}

/** Prints rows as an aligned text table (console.table quotes strings and wastes width). */
export function printTable(rows: Record<string, string>[]): void {
  const first = rows[0];
  if (!first) return;
  const columns = Object.keys(first);
  const widths = columns.map((c) => Math.max(c.length, ...rows.map((row) => (row[c] ?? '').length)));
  const line = (cells: string[]) =>
    cells.map((cell, i) => (i === 0 ? cell.padEnd(widths[i]!) : cell.padStart(widths[i]!))).join('  ');
  console.log(line(columns));
  console.log(widths.map((w) => '-'.repeat(w)).join('  '));
  for (const row of rows) console.log(line(columns.map((c) => row[c] ?? '')));
}

/** A bench module: `run.ts` imports it and calls `run()`. */
export interface BenchModule {
  title: string;
  run(): Promise<void>;
}

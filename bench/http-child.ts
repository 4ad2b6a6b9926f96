/**
 * Runs one server child of a benchmark and loads it: fork (pinned to the server core when pinning
 * is on), warm up, mark the child's CPU counters, load for the measured window, read them back.
 * Each request is taken from `pool` in order; the caller learns how many were sent, so it can undo
 * exactly their effect before the next candidate runs.
 */
import { fork } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { pinServer } from './pin.js';
import type { CpuReport } from './servers/child.js';
import { rampOver, type WarmUp } from './warm-up.js';

export interface LoadRequest {
  headers: Record<string, string>;
  body: Buffer;
}

export interface Load {
  rps: number;
  p99: number;
  requests: number;
  sent: number;
  bad: number;
}

/**
 * BENCH_LATENCY_OUT=<file>: each load writes `<file>.<port>.<connections>.tsv`, one line per response
 * (ms since the load began, its latency in ms), to see whether slow responses come together (a stall)
 * or spread out (unfair scheduling).
 */
const LATENCY_OUT = process.env.BENCH_LATENCY_OUT;
let loads = 0;

/** What `autocannon()` returns without a callback: a promise that is also its event emitter. */
type Tracked = Promise<autocannon.Result> & Pick<import('node:events').EventEmitter, 'on'>;

function latencyTimeline(instance: Tracked): string[] {
  const start = performance.now();
  const lines: string[] = [];
  instance.on('response', (_client: unknown, _status: number, _bytes: number, latency: number) => {
    lines.push(`${(performance.now() - start).toFixed(1)}\t${latency.toFixed(2)}`);
  });
  return lines;
}

export async function load(
  port: number,
  path: string,
  pool: readonly LoadRequest[],
  connections: number,
  seconds: number,
): Promise<Load> {
  let next = 0;
  const instance = autocannon({
    url: `http://127.0.0.1:${port}`,
    connections,
    duration: seconds,
    requests: [
      {
        method: 'POST',
        path,
        setupRequest: (request) => {
          const signed = pool[next++ % pool.length]!;
          return { ...request, headers: signed.headers, body: signed.body };
        },
      },
    ],
  });
  const timeline = LATENCY_OUT === undefined ? undefined : latencyTimeline(instance as Tracked);
  const result = await instance;
  if (timeline) writeFileSync(`${LATENCY_OUT}.${port}.${connections}.${++loads}.tsv`, timeline.join('\n'));
  return {
    rps: result.requests.average,
    p99: result.latency.p99,
    requests: result.requests.total,
    sent: Math.min(next, pool.length),
    bad: result.non2xx + result.errors + result.timeouts,
  };
}

export interface Measured extends Load {
  cpuMicrosPerRequest: number;
  mainCpuMicrosPerRequest: number | undefined;
  /** CPU of every `postgres` process on this machine per request (others' queries included). */
  pgCpuMicrosPerRequest: number | undefined;
  /** CPU of the `sidePid` process (a service behind the server) per request, when one was named. */
  sideCpuMicrosPerRequest: number | undefined;
  /** Database round trips per request, when the server counts them (servers/count-round-trips.ts). */
  roundTripsPerRequest: number | undefined;
  wrapped: boolean;
  /** How long the warm-up ran, and whether the rate had stopped rising by then (`WarmUp`). */
  warmupSeconds: number;
  warmupSteady: boolean;
}

export interface ChildSpec {
  script: string;
  args: string[];
}

/** utime + stime (µs) of one process from its /proc stat line, with the name it runs under. */
function procCpu(pid: string): { name: string; micros: number } | undefined {
  let stat: string;
  try {
    stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return undefined;
  }
  const name = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  // utime and stime, fields 14 and 15 of stat(5), in clock ticks (USER_HZ, 100 on Linux).
  return { name, micros: (Number(fields[11]) + Number(fields[12])) * 10_000 };
}

/** CPU time (µs) of one process, all threads; undefined off Linux or once it exited. */
export function processCpuMicros(pid: number): number | undefined {
  return procCpu(String(pid))?.micros;
}

/** CPU time (µs) of all processes named `postgres` visible in /proc; undefined off Linux. */
export function postgresCpuMicros(): number | undefined {
  try {
    let micros = 0;
    for (const pid of readdirSync('/proc')) {
      if (!/^\d+$/.test(pid)) continue;
      const cpu = procCpu(pid);
      if (cpu?.name === 'postgres') micros += cpu.micros;
    }
    return micros;
  } catch {
    return undefined;
  }
}

/**
 * BENCH_FROM_DIST=1: the server children import the packages' built `dist/` (run `pnpm build`
 * first) instead of their sources through tsx, which wraps every function it compiles in
 * `__name` (esbuild's keepNames): what a market runs is the published build. Only the server
 * script itself still goes through tsx.
 */
export function serverExecArgv(execArgv: readonly string[], fromDist: boolean): string[] {
  if (!fromDist) return [...execArgv];
  const out: string[] = [];
  for (let i = 0; i < execArgv.length; i++) {
    if (execArgv[i] === '--conditions=source' || execArgv[i] === '-C=source') continue;
    if ((execArgv[i] === '--conditions' || execArgv[i] === '-C') && execArgv[i + 1] === 'source') {
      i++;
      continue;
    }
    out.push(execArgv[i]!);
  }
  return out;
}

const FROM_DIST = process.env.BENCH_FROM_DIST === '1';
if (FROM_DIST && !existsSync(fileURLToPath(new URL('../packages/core/dist/index.js', import.meta.url)))) {
  throw new Error('BENCH_FROM_DIST=1 needs the packages built: run `npx -y pnpm@10 build` first');
}

export async function startChild(spec: ChildSpec) {
  // BENCH_NODE_FLAGS adds flags to the server child only, e.g. `--cpu-prof --cpu-prof-dir=/tmp/p`.
  const extra = process.env.BENCH_NODE_FLAGS?.split(' ').filter(Boolean) ?? [];
  const child = fork(spec.script, spec.args, {
    execArgv: [...serverExecArgv(process.execArgv, FROM_DIST), ...extra],
    // As a market deploys it (the store, for one, skips its development-time guard in production).
    env: { ...process.env, NODE_ENV: process.env.BENCH_NODE_ENV ?? 'production' },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  // Pinned before it imports anything, so its libuv threads inherit the core too.
  pinServer(child.pid);
  const [message] = (await once(child, 'message')) as [{ port: number }];
  return {
    port: message.port,
    /** For a benchmark's own messages to its server. */
    process: child,
    async cpu(kind: 'mark' | 'report'): Promise<CpuReport | undefined> {
      child.send(kind);
      if (kind === 'mark') return undefined;
      const [report] = (await once(child, 'message')) as [CpuReport];
      return report;
    },
    async stop() {
      child.kill('SIGINT');
      if (child.exitCode === null) await once(child, 'exit');
    },
  };
}

export interface Warmed {
  requests: number;
  sent: number;
  seconds: number;
  /** Whether the rate stopped rising before `maxSeconds` (or the warm-up pool) ran out. */
  steady: boolean;
}

/** Loads `pool` (the warm-up's own requests) slice by slice until the rate stops rising. */
export async function warmUntilSteady(
  port: number,
  path: string,
  pool: readonly LoadRequest[],
  connections: number,
  warmup: WarmUp,
): Promise<Warmed> {
  const warmed: Warmed = { requests: 0, sent: 0, seconds: 0, steady: false };
  const rates: number[] = [];
  while (warmed.seconds < warmup.maxSeconds) {
    const left = pool.slice(warmed.sent);
    // A slice must not wrap onto requests it already sent: stop short instead.
    if (warmed.seconds > 0 && left.length < (warmed.requests / warmed.seconds) * warmup.sliceSeconds * 1.5)
      break;
    const slice = await load(port, path, left, connections, warmup.sliceSeconds);
    warmed.requests += slice.requests;
    warmed.sent += slice.sent;
    warmed.seconds += warmup.sliceSeconds;
    rates.push(slice.rps);
    if (rampOver(rates, warmup)) {
      warmed.steady = true;
      break;
    }
  }
  return warmed;
}

/**
 * Warm-up on the pool's tail, measurement on its head: no request is sent twice to one child
 * (unless the measured window outruns the pool, which `wrapped` reports).
 */
export async function measureChild(
  spec: ChildSpec,
  path: string,
  pool: readonly LoadRequest[],
  options: { connections: number; warmup: WarmUp; seconds: number; sidePid?: number | undefined },
): Promise<Measured & { warmupSent: number }> {
  const sideCpu = () => (options.sidePid === undefined ? undefined : processCpuMicros(options.sidePid));
  const child = await startChild(spec);
  try {
    const half = Math.floor(pool.length / 2);
    const warm = await warmUntilSteady(
      child.port,
      path,
      pool.slice(half),
      options.connections,
      options.warmup,
    );
    await child.cpu('mark');
    const pgBefore = postgresCpuMicros();
    const sideBefore = sideCpu();
    const measured = await load(child.port, path, pool.slice(0, half), options.connections, options.seconds);
    const sideAfter = sideCpu();
    const pgAfter = postgresCpuMicros();
    const report = (await child.cpu('report'))!;
    const per = (micros: number) => micros / Math.max(1, measured.requests);
    return {
      ...measured,
      cpuMicrosPerRequest: per(report.cpuMicros),
      mainCpuMicrosPerRequest: report.mainCpuMicros === undefined ? undefined : per(report.mainCpuMicros),
      // A postgres backend that exits during the window takes its ticks with it: no figure then.
      pgCpuMicrosPerRequest:
        pgBefore === undefined || pgAfter === undefined || pgAfter < pgBefore
          ? undefined
          : per(pgAfter - pgBefore),
      sideCpuMicrosPerRequest:
        sideBefore === undefined || sideAfter === undefined ? undefined : per(sideAfter - sideBefore),
      roundTripsPerRequest: report.roundTrips === undefined ? undefined : per(report.roundTrips),
      wrapped: measured.requests > half || warm.requests > pool.length - half,
      warmupSent: warm.sent,
      warmupSeconds: warm.seconds,
      warmupSteady: warm.steady,
    };
  } finally {
    await child.stop();
  }
}

/**
 * Cold start and memory: what a process pays before its first request.
 *
 * - `import @bnpl-kit/core`: a fresh `node` importing the built package (packages/core/dist; run
 *   `pnpm build` first), wall time and CPU time of the import alone, next to importing `hono` +
 *   `pg` (what a bare Hono + PostgreSQL server loads), and the ratio of their median CPU times
 *   (goal ≤ 1.2×).
 * - What single packages cost to import (CPU, median), each in a fresh `node`: what the server
 *   loads (zod, pg, pino, Hono) and what it must not load unless the configuration needs it.
 * - The reference server (apps/basic-server, default configuration: embedded sandbox and demo
 *   shop, FRAMEWORK=hono) on PostgreSQL (a database of its own, dropped afterwards) and on PGlite
 *   (a data directory created by a first, unmeasured start): ready = first `200` from `/healthz`,
 *   counted from spawn, with the CPU time the process used until then (steadier than wall time on
 *   a shared machine; the goals are on it: ≤ 600 ms on PostgreSQL, ≤ 800 ms on PGlite); idle RSS
 *   after BENCH_IDLE_SECONDS (10) without requests (≤ 100 MB and ≤ 250 MB). It is started
 *   as the README starts it, `node scripts/start.mjs basic`: one `node` process running the
 *   esbuild bundle cached in node_modules/.cache/bnpl-kit (the unmeasured first start compiles
 *   it), no package manager or tsx around it.
 *
 * Environment: BENCH_DATABASE_URL, BENCH_COLD_RUNS (5), BENCH_IDLE_SECONDS (10).
 */
import { execFile, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import pg from 'pg';
import { type BenchModule, median, printTable } from './harness.js';
import { DATABASE_URL } from './pg-fixture.js';

const RUNS = Number(process.env.BENCH_COLD_RUNS ?? 5);
const IDLE_SECONDS = Number(process.env.BENCH_IDLE_SECONDS ?? 10);
const root = fileURLToPath(new URL('..', import.meta.url));
const benchDir = fileURLToPath(new URL('.', import.meta.url));
const run = promisify(execFile);
// USER_HZ of /proc/<pid>/stat: 100 on Linux.
const CLOCK_TICKS = 100;

const IMPORT_PROBE = `
const cpu = process.cpuUsage(); const t = performance.now();
for (const m of process.argv.slice(1)) await import(m);
const used = process.cpuUsage(cpu);
console.log(JSON.stringify({ wall: performance.now() - t, cpu: (used.user + used.system) / 1000, rss: process.memoryUsage.rss() }));
`;

interface Probe {
  wall: number;
  cpu: number;
  rss: number;
}

async function importCost(modules: string[], cwd = benchDir): Promise<Probe> {
  const { stdout } = await run(process.execPath, ['--input-type=module', '-e', IMPORT_PROBE, ...modules], {
    cwd,
  });
  return JSON.parse(stdout) as Probe;
}

const mb = (bytes: number) => `${Math.round(bytes / 1e6)} MB`;
const spread = (values: number[], unit: string) =>
  `${Math.round(Math.min(...values))}/${Math.round(median(values))}/${Math.round(Math.max(...values))} ${unit}`;

async function importRows(): Promise<Record<string, string>[]> {
  const core = join(root, 'packages/core/dist/index.js');
  if (!existsSync(core))
    return [{ what: 'import @bnpl-kit/core', note: 'not built: run `pnpm build` first' }];
  const candidates: [string, string[]][] = [
    ['import @bnpl-kit/core (dist)', [core]],
    ['import hono + pg (bare server)', ['hono', 'pg']],
  ];
  const results = new Map<string, Probe[]>(candidates.map(([name]) => [name, []]));
  for (let i = 0; i < RUNS; i++) {
    for (const [name, modules] of candidates) results.get(name)!.push(await importCost(modules));
  }
  // The goal is relative: what a bare Hono + PostgreSQL server pays to import, measured in the same
  // rounds, so a busy machine moves both alike.
  const bare = median(results.get('import hono + pg (bare server)')!.map((p) => p.cpu));
  return [...results].map(([what, probes]) => {
    const cpu = median(probes.map((p) => p.cpu));
    return {
      what,
      'wall min/med/max': spread(
        probes.map((p) => p.wall),
        'ms',
      ),
      'CPU min/med/max': spread(
        probes.map((p) => p.cpu),
        'ms',
      ),
      'CPU / hono + pg': `${(cpu / bare).toFixed(2)}×`,
      'goal ≤ 1.2×': what.includes('core') ? (cpu <= 1.2 * bare ? 'yes' : 'NO') : '',
      RSS: mb(median(probes.map((p) => p.rss))),
    };
  });
}

/** Package → the workspace directory that depends on it (bare names resolve from there). */
const MODULES: [string, string[], string][] = [
  ['zod', ['zod'], 'packages/core'],
  ['pg', ['pg'], 'packages/store'],
  ['pino', ['pino'], 'apps/reference-kit'],
  ['hono + @hono/node-server', ['hono', '@hono/node-server'], 'apps/reference-kit'],
  ['express (not loaded with hono)', ['express'], 'apps/reference-kit'],
  ['koa (not loaded with hono)', ['koa'], 'apps/reference-kit'],
  ['msw (not loaded by the server)', ['msw'], 'packages/sandbox'],
  ['@electric-sql/pglite (PGlite only)', ['@electric-sql/pglite'], 'packages/store'],
];

async function moduleRows(): Promise<Record<string, string>[]> {
  const costs = new Map<string, Probe[]>(MODULES.map(([name]) => [name, []]));
  for (let i = 0; i < RUNS; i++) {
    for (const [name, modules, dir] of MODULES)
      costs.get(name)!.push(await importCost(modules, join(root, dir)));
  }
  return [...costs].map(([module, probes]) => ({
    module,
    'import CPU min/med/max': spread(
      probes.map((p) => p.cpu),
      'ms',
    ),
    'RSS of node + it': mb(median(probes.map((p) => p.rss))),
  }));
}

/** CPU time (user + system) the process has used so far, in ms. */
function cpuOf(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  const ticks = Number(fields[11]) + Number(fields[12]);
  return (ticks * 1000) / CLOCK_TICKS;
}

function rssOf(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) * 1024;
}

/** Starts the basic server, waits for `/healthz`, idles, reads its RSS, stops it. */
async function startServer(
  env: Record<string, string>,
  idle: boolean,
): Promise<{ ready: number; cpu: number; rss: number }> {
  const started = performance.now();
  const child = spawn(process.execPath, ['scripts/start.mjs', 'basic'], {
    cwd: root,
    env: { ...process.env, ...env, PORT: '0', LOG_LEVEL: 'info', FRAMEWORK: 'hono' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  try {
    const url = await new Promise<string>((resolve, reject) => {
      let out = '';
      child.stdout!.on('data', (chunk: Buffer) => {
        out += chunk.toString();
        const match = /"url":"(http:\/\/[^"]+)"/.exec(out);
        if (match) resolve(match[1]!);
      });
      child.on('exit', (code) => reject(new Error(`server exited (${code}) before listening:\n${out}`)));
    });
    // Ready is the first answer, not the log line: poll until /healthz says 200.
    for (;;) {
      const ok = await fetch(`${url}/healthz`).then(
        (r) => r.ok,
        () => false,
      );
      if (ok) break;
    }
    const ready = performance.now() - started;
    const cpu = cpuOf(child.pid!);
    if (idle) await new Promise((resolve) => setTimeout(resolve, IDLE_SECONDS * 1000));
    return { ready, cpu, rss: rssOf(child.pid!) };
  } finally {
    child.kill('SIGKILL');
    child.stdout!.destroy();
  }
}

async function serverRows(): Promise<Record<string, string>[]> {
  const database = `bnpl_bench_cold_${process.pid}`;
  const admin = new pg.Client({ connectionString: DATABASE_URL });
  await admin.connect();
  const dataDir = mkdtempSync(join(tmpdir(), 'bnpl-cold-'));
  try {
    await admin.query(`CREATE DATABASE ${database}`);
    const url = new URL(DATABASE_URL);
    url.pathname = `/${database}`;
    // [what, environment, CPU-to-ready goal ms, idle RSS goal MB] (issues 15, 23 and 36). CPU, not wall
    // time: on a shared machine the wall time swings with other work, the CPU it took barely does.
    const configs: [string, Record<string, string>, number, number][] = [
      [
        'reference server (start.mjs bundle), PostgreSQL',
        { DATABASE_URL: url.toString(), DATA_DIR: join(dataDir, 'pg') },
        600,
        100,
      ],
      [
        'reference server (start.mjs bundle), PGlite (existing dir)',
        { DATA_DIR: join(dataDir, 'pglite') },
        800,
        250,
      ],
    ];
    // A first, unmeasured start of each: bundle compiled, migrations applied, keys written, PGlite
    // directory created.
    for (const [, env] of configs) await startServer(env, false);
    const runs = new Map<string, { ready: number; cpu: number; rss: number }[]>(
      configs.map(([what]) => [what, []]),
    );
    // Interleaved, so a busy minute on the shared machine hits both configurations alike.
    for (let i = 0; i < Math.max(1, Math.ceil(RUNS / 2)); i++) {
      for (const [what, env] of configs) runs.get(what)!.push(await startServer(env, true));
    }
    const rows: Record<string, string>[] = [];
    for (const [what, , cpuGoal, rssGoal] of configs) {
      const ready = runs.get(what)!.map((r) => r.ready);
      const cpu = runs.get(what)!.map((r) => r.cpu);
      const rss = runs.get(what)!.map((r) => r.rss / 1e6);
      const met = `${median(cpu) <= cpuGoal ? 'CPU yes' : 'CPU NO'}, ${median(rss) <= rssGoal ? 'RSS yes' : 'RSS NO'}`;
      rows.push({
        what,
        'ready min/med/max': spread(ready, 'ms'),
        'CPU to ready': spread(cpu, 'ms'),
        [`idle RSS (${IDLE_SECONDS} s) min/med/max`]: spread(rss, 'MB'),
        goal: `CPU to ready ≤ ${cpuGoal} ms, RSS ≤ ${rssGoal} MB: ${met}`,
      });
    }
    return rows;
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
    await admin.query(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`).catch(() => {});
    await admin.end();
  }
}

const bench: BenchModule = {
  title: 'Cold start and memory',
  async run() {
    printTable(await importRows());
    console.log('');
    printTable(await moduleRows());
    console.log('');
    printTable(await serverRows());
  },
};
export default bench;

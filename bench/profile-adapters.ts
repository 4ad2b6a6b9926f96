/**
 * Profiling aid, not a benchmark: runs one server side of `adapters.ts` (framework × bare|adapter),
 * loads it for a few seconds with the same pre-signed webhooks and prints requests, req/s and
 * server CPU per request. By default the server runs under `--cpu-prof` and leaves its
 * `.cpuprofile` in `BENCH_PROF_DIR` (default /tmp/bnpl-prof) for Chrome DevTools or speedscope;
 * `BENCH_NODE_FLAGS` replaces those flags, e.g. `--trace-gc-nvp` (bytes promoted per scavenge) or
 * `--trace-pretenuring-statistics` (allocation sites V8 decided to pretenure).
 *
 *   pnpm --filter @bnpl-kit/bench run profile:adapters hono adapter [seconds]
 *
 * Unpinned by default: on a shared core, time the Web Crypto threads take from the main thread is
 * charged to whatever JavaScript frame was interrupted. BENCH_PIN=1 pins as adapters.ts does.
 */
import { execFileSync, fork } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { generateKeyPair } from '@bnpl-kit/core/testing';
import { type Framework, type Kind, load, signPool } from './adapters.js';

const [framework = 'hono', kind = 'adapter', seconds = '5'] = process.argv.slice(2);
const dir = process.env.BENCH_PROF_DIR ?? '/tmp/bnpl-prof';
const flags = process.env.BENCH_NODE_FLAGS ?? `--cpu-prof --cpu-prof-dir=${dir} --cpu-prof-interval=100`;
const keys = await generateKeyPair();
const pool = await signPool(keys.seed);
const child = fork(
  fileURLToPath(new URL('./adapters.ts', import.meta.url)),
  ['--serve', framework as Framework, kind as Kind, keys.publicKey],
  { execArgv: [...process.execArgv, ...flags.split(' ')], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] },
);
if (process.env.BENCH_PIN === '1') {
  execFileSync('taskset', ['-a', '-p', '-c', '1', String(child.pid)], { stdio: 'ignore' });
  execFileSync('taskset', ['-a', '-p', '-c', '0', String(process.pid)], { stdio: 'ignore' });
}
const [message] = (await once(child, 'message')) as [{ port: number }];
const warm = await load(message.port, pool.slice(pool.length / 2), 1);
child.send('mark');
const run = await load(message.port, pool.slice(0, pool.length / 2), Number(seconds));
child.send('report');
const [report] = (await once(child, 'message')) as [{ cpuMicros: number; mainCpuMicros?: number }];
console.log(
  `${framework} ${kind}: ${warm.requests + run.requests} requests in all; ${Math.round(run.rps)} req/s, ` +
    `${(report.cpuMicros / run.requests).toFixed(0)} µs CPU/req ` +
    `(main thread ${report.mainCpuMicros === undefined ? 'n/a' : (report.mainCpuMicros / run.requests).toFixed(1)}), ${run.bad} bad`,
);
child.kill('SIGINT');
await once(child, 'exit');

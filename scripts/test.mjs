#!/usr/bin/env node
/**
 * The README's test command (`npx -y pnpm@10 test`): does its own set-up, then every package's
 * tests. It finds (or installs) the Chromium the browser tests drive, builds what the suites test
 * built, runs every package's suite through turbo so that one package's failure neither stops nor
 * taints the others, and ends with one line per package that failed and a total. Three packages per
 * core run at once (test-concurrency.mjs says why), the longest suites first (test-schedule.mjs).
 *
 * The whole command always runs every suite (a fresh clone, CI and the bench measure that). With
 * `--filter …` it is one `turbo run test` as before, turbo's cache included: extra arguments go to
 * turbo (e.g. `--filter @bnpl-kit/core`, or `--concurrency=N`).
 */
import { spawn } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { reportedCpuSeconds } from './child-cpu.mjs';
import { ensureChromium } from './chromium.mjs';
import { splitConcurrency, withTestConcurrency } from './test-concurrency.mjs';
import { inPool, startOrder, testedPackages } from './test-schedule.mjs';
import { cpuLine, stripAnsi, summarize } from './test-summary.mjs';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

const chromium = ensureChromium();
if ('error' in chromium) {
  process.stderr.write(`test: ${chromium.error}\n`);
  process.exit(1);
}
process.stderr.write(`test: browser tests use Chromium at ${chromium.path}\n`);

const turbo = join(ROOT, 'node_modules', '.bin', 'turbo');
const env = { ...process.env, CHROMIUM_PATH: chromium.path };
const turboArgs = withTestConcurrency(process.argv.slice(2), availableParallelism());
const filtered = turboArgs.some((arg) => arg === '-F' || arg.startsWith('--filter'));

/** The children running now: a supervisor's SIGTERM is passed on (Ctrl-C reaches them through the terminal). */
const children = new Set();
let stopping = false;
process.on('SIGTERM', () => {
  stopping = true;
  for (const child of children) child.kill('SIGTERM');
});
process.on('SIGINT', () => {});

/** turbo's own lines around one package's suite (its banner and totals), left out of the log 26 times over. */
const TURBO_CHATTER = /^\s*$|^\s+• |^\s*(Tasks|Cached|Time):/;

const MEASURE_CPU = join(ROOT, 'scripts', 'measure-cpu.mjs');

/**
 * Runs turbo with `args`, its stdout written through line by line (whole lines, so that suites
 * running side by side never interleave mid-line) and returned, with the CPU seconds turbo and
 * everything it ran took (measure-cpu.mjs; undefined without /proc).
 */
function runTurbo(args, { quiet = false } = {}) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [MEASURE_CPU, '--report-fd=3', turbo, ...args], {
      cwd: ROOT,
      env,
      stdio: ['inherit', 'pipe', 'inherit', 'pipe'],
    });
    children.add(child);
    let output = '';
    let report = '';
    createInterface({ input: child.stdout }).on('line', (line) => {
      output += `${line}\n`;
      if (!quiet || !TURBO_CHATTER.test(stripAnsi(line))) process.stdout.write(`${line}\n`);
    });
    child.stdio[3].on('data', (chunk) => {
      report += chunk;
    });
    child.on('close', (code, signal) => {
      children.delete(child);
      const cpuSeconds = reportedCpuSeconds(report);
      resolve({ code: code ?? 1, signal, output, cpuSeconds });
    });
  });
}

if (filtered) {
  const { code, signal, output } = await runTurbo(['run', 'test', '--continue', '--summarize', ...turboArgs]);
  const runFile = /Summary:\s+(\S+\.json)/.exec(stripAnsi(output))?.[1];
  const run = runFile ? JSON.parse(readFileSync(runFile, 'utf8')) : undefined;
  process.stdout.write(`\n${summarize(output, run)}\n`);
  if (code !== 0 && !run)
    process.stdout.write(`test: turbo exited with ${signal ?? code} before running the tests\n`);
  process.exit(code);
}

// The builds some suites test (the README projects install the packed packages; Next.js, the other
// runtimes) first, with the whole machine: cached when nothing changed (CI's typecheck made them).
let split;
try {
  split = splitConcurrency(process.argv.slice(2), availableParallelism());
} catch (error) {
  process.stderr.write(`test: ${error.message}\n`);
  process.exit(2);
}
const { limit: concurrency, rest } = split;
const passOn = rest.filter((arg) => arg !== '--force');
const build = await runTurbo([
  'run',
  'build',
  '--output-logs=errors-only',
  ...(rest.includes('--force') ? ['--force'] : []),
]);
if (build.code !== 0) process.stdout.write('test: a build failed; the suites that test it fail with it\n');

// Then each package's suite alone (`--only`: its builds are made, its transit tasks are no-ops),
// longest first, `concurrency` at once. `--force`: a suite's hash under `--only` leaves out the
// packages it depends on, so a cached result could be stale; the whole command runs everything.
let packages;
try {
  packages = testedPackages(ROOT);
} catch (error) {
  process.stdout.write(`test: turbo could not list the packages to test (${error.message.split('\n')[0]})\n`);
  process.exit(1);
}
const startTime = Date.now();
const tasks = [];
let output = '';
await inPool(startOrder(packages), concurrency, async (name) => {
  if (stopping) return; // no new suite once a supervisor asked the command to stop
  const started = Date.now();
  const run = await runTurbo(['run', 'test', '--only', '--force', '--filter', name, ...passOn], {
    quiet: true,
  });
  output += run.output;
  tasks.push({
    taskId: `${name}#test`,
    task: 'test',
    package: name,
    execution: { startTime: started, endTime: Date.now(), exitCode: run.code },
    ...(run.cpuSeconds !== undefined && { cpuSeconds: run.cpuSeconds }),
  });
});
const exitCode = stopping || tasks.some((task) => task.execution.exitCode !== 0) ? 1 : 0;
// Written where turbo writes its run summaries, in their shape, for `pnpm bench test-suite`.
const runsDir = join(ROOT, '.turbo', 'runs');
mkdirSync(runsDir, { recursive: true });
const run = {
  execution: {
    command: 'node scripts/test.mjs: turbo run test, each package --only, longest first',
    startTime,
    endTime: Date.now(),
    exitCode,
  },
  ...(build.cpuSeconds !== undefined && { buildCpuSeconds: build.cpuSeconds }),
  tasks,
};
writeFileSync(join(runsDir, `test-command-${startTime}.json`), `${JSON.stringify(run, null, 2)}\n`);
const cpu = cpuLine(run, availableParallelism());
if (cpu) process.stdout.write(`\n${cpu}`);
process.stdout.write(`\n${summarize(output, run)}\n`);
process.exit(exitCode);

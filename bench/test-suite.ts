/**
 * The test suite as a number to watch: the README's test command's wall time, the slowest
 * packages, and the slowest 10 test files.
 *
 * Every vitest run leaves its files' times in its package (`node_modules/.vitest/timings.json`,
 * written by vitest.timings.ts) and every `pnpm test` leaves turbo's run summary in `.turbo/runs/`;
 * this module reads the newest of both. With BENCH_TEST_RUN=1 it first runs the test command itself
 * (`node scripts/test.mjs --force`, nothing cached) and times it from spawn to exit.
 *
 * A file's time is all of it: environment, import, set-up, tests and hooks. Files run side by side,
 * so they add up to more than the wall time.
 */
import { spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { PackageTimings } from '../vitest.timings.js';
import { type BenchModule, printTable } from './harness.js';

const root = fileURLToPath(new URL('..', import.meta.url));
const REPORT = join('node_modules', '.vitest', 'timings.json');
const SLOWEST = 10;

interface TurboRun {
  execution: { command: string; startTime: number; endTime: number; exitCode: number };
  tasks: {
    package: string;
    taskId: string;
    execution?: { startTime: number; endTime: number; exitCode: number };
  }[];
}

function workspaceDirs(): string[] {
  const dirs = ['contract-tests', 'docs', 'scripts'];
  for (const parent of ['packages', 'apps', 'tools']) {
    for (const name of readdirSync(join(root, parent))) dirs.push(join(parent, name));
  }
  return dirs.filter((dir) => existsSync(join(root, dir, REPORT)));
}

function newestTestRun(): TurboRun | undefined {
  const dir = join(root, '.turbo', 'runs');
  if (!existsSync(dir)) return undefined;
  const runs = readdirSync(dir)
    .filter((name) => name.endsWith('.json'))
    .map((name) => join(dir, name))
    .sort((a, b) => statSync(b).mtimeMs - statSync(a).mtimeMs)
    .map((file) => JSON.parse(readFileSync(file, 'utf8')) as TurboRun);
  return runs.find((run) => /\brun test\b/.test(run.execution.command) && run.tasks.length > 1);
}

async function runTestCommand(): Promise<number> {
  const started = performance.now();
  const code = await new Promise<number>((resolve) => {
    const child = spawn(process.execPath, [join(root, 'scripts', 'test.mjs'), '--force'], {
      cwd: root,
      stdio: ['ignore', 'inherit', 'inherit'],
    });
    child.on('close', (status) => resolve(status ?? 1));
  });
  const seconds = (performance.now() - started) / 1000;
  console.log(`\ntest command: exit ${code}, ${seconds.toFixed(0)} s from spawn to exit`);
  return seconds;
}

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

const bench: BenchModule = {
  title: 'Test suite: the README test command, slowest packages and files',
  async run() {
    if (process.env.BENCH_TEST_RUN === '1') await runTestCommand();
    const run = newestTestRun();
    const files: { file: string; ms: number; importMs: number; status: string }[] = [];
    let passed = 0;
    let failed = 0;
    for (const dir of workspaceDirs()) {
      const report = JSON.parse(readFileSync(join(root, dir, REPORT), 'utf8')) as PackageTimings;
      for (const timing of report.files) {
        passed += timing.passed;
        failed += timing.failed;
        files.push({
          file: join(dir, timing.file),
          ms: timing.totalMs,
          importMs: timing.importMs,
          status: timing.state,
        });
      }
    }
    if (!run && files.length === 0) {
      console.log('No test run found: run `npx -y pnpm@10 test` first, or set BENCH_TEST_RUN=1.');
      return;
    }
    if (run) {
      const tasks = run.tasks.filter((task) => task.taskId.endsWith('#test') && task.execution);
      const failedTasks = tasks.filter((task) => task.execution?.exitCode !== 0).length;
      console.log(
        `newest test command (${new Date(run.execution.startTime).toISOString()}): ` +
          `${seconds(run.execution.endTime - run.execution.startTime)} wall, ${tasks.length} packages, ` +
          `${failedTasks} failed; ${passed} tests passed, ${failed} failed\n`,
      );
      const byTime = tasks
        .map((task) => ({ name: task.package, ms: task.execution!.endTime - task.execution!.startTime }))
        .sort((a, b) => b.ms - a.ms)
        .slice(0, 5);
      printTable(byTime.map((task) => ({ 'slowest packages': task.name, wall: seconds(task.ms) })));
      console.log('');
    }
    files.sort((a, b) => b.ms - a.ms);
    printTable(
      files.slice(0, SLOWEST).map((entry) => ({
        [`slowest ${SLOWEST} files`]: entry.file,
        time: seconds(entry.ms),
        'of it import': seconds(entry.importMs),
        status: entry.status,
      })),
    );
  },
};

export default bench;

/**
 * The test suite as a number to watch: the README's test command's wall time, the costliest
 * packages, and the costliest 10 test files (by CPU seconds where measured, else by wall).
 *
 * Every vitest run leaves its files' times in its package (`node_modules/.vitest/timings.json`,
 * written by vitest.timings.ts) and every `pnpm test` leaves turbo's run summary in `.turbo/runs/`;
 * this module reads the newest of both. With BENCH_TEST_RUN=1 it first runs the test command itself
 * (`node scripts/test.mjs --force`, nothing cached) and reports its wall time and the CPU seconds of
 * everything it started. With BENCH_TEST_CPU=1 it runs each package's tests alone, one after another,
 * and prints what each costs in CPU seconds: the test command is CPU-bound on two cores, so these, not
 * the packages' wall times side by side, say where its minutes go.
 *
 * A file's time is all of it: environment, import, set-up, tests and hooks. Files run side by side,
 * so they add up to more than the wall time.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { testedPackages } from '@bnpl-kit/scripts/test-schedule.mjs';
import type { PackageTimings } from '../vitest.timings.js';
import { type BenchModule, printTable } from './harness.js';
import { runMeasured } from './process-tree-cpu.js';

const root = fileURLToPath(new URL('..', import.meta.url));
const REPORT = join('node_modules', '.vitest', 'timings.json');
const SLOWEST = 10;

export interface TurboRun {
  execution: { command: string; startTime: number; endTime: number; exitCode: number };
  /** The test command's build step, in CPU seconds (scripts/test.mjs; not in turbo's own summaries). */
  buildCpuSeconds?: number;
  tasks: {
    package: string;
    taskId: string;
    execution?: { startTime: number; endTime: number; exitCode: number };
    /** What the package's suite cost inside the command (scripts/measure-cpu.mjs). */
    cpuSeconds?: number;
  }[];
}

/**
 * Every workspace package's directory, relative to the root, as pnpm reads pnpm-workspace.yaml
 * (the root itself, which has no tests of its own, left out).
 */
function packageDirs(): string[] {
  const listed = JSON.parse(
    execFileSync('npx', ['-y', 'pnpm@10', 'ls', '-r', '--depth', '-1', '--json'], {
      cwd: root,
      encoding: 'utf8',
    }),
  ) as { path: string }[];
  return listed.map((pkg) => relative(root, pkg.path)).filter((dir) => dir !== '');
}

function workspaceDirs(): string[] {
  return packageDirs().filter((dir) => existsSync(join(root, dir, REPORT)));
}

function newestTestRun(): TurboRun | undefined {
  const dir = join(root, '.turbo', 'runs');
  if (!existsSync(dir)) return undefined;
  const runs = readdirSync(dir)
    .filter((name) => name.endsWith('.json'))
    .map((name) => join(dir, name))
    .sort((a, b) => statSync(b).mtimeMs - statSync(a).mtimeMs)
    .map((file) => JSON.parse(readFileSync(file, 'utf8')) as TurboRun);
  // A whole run: not one of BENCH_TEST_CPU's runs of a single package (`--filter`).
  return runs.find(
    (run) =>
      /\brun test\b/.test(run.execution.command) &&
      !/--filter/.test(run.execution.command) &&
      run.tasks.length > 1,
  );
}

const testCommand = (...args: string[]) => [
  process.execPath,
  join(root, 'scripts', 'test.mjs'),
  '--force',
  ...args,
];

async function runTestCommand(): Promise<void> {
  const run = await runMeasured(testCommand(), { cwd: root });
  const cores = availableParallelism();
  const cpu =
    run.cpuSeconds === undefined
      ? 'CPU not measurable here (no /proc)'
      : `${run.cpuSeconds.toFixed(0)} CPU-seconds, ${((100 * run.cpuSeconds) / (run.wallSeconds * cores)).toFixed(0)} % of ${cores} cores`;
  console.log(
    `\ntest command: exit ${run.exitCode}, ${run.wallSeconds.toFixed(0)} s from spawn to exit, ${cpu}`,
  );
}

/** Each package's tests alone (through the test command, so with its set-up), one after another. */
async function cpuPerPackage(): Promise<void> {
  const rows: { name: string; cpu: number; wall: number; exitCode: number }[] = [];
  // BENCH_TEST_PACKAGES=@bnpl-kit/core,@bnpl-kit/store measures only those.
  const only = process.env.BENCH_TEST_PACKAGES?.split(',').map((name) => name.trim());
  for (const name of testedPackages(root).filter((name) => !only || only.includes(name))) {
    process.stdout.write(`${name} … `);
    const run = await runMeasured(testCommand(`--filter=${name}`), { cwd: root, quiet: true });
    if (run.cpuSeconds === undefined) {
      console.log('\nCPU not measurable here (no /proc): BENCH_TEST_CPU needs Linux.');
      return;
    }
    console.log(`${run.cpuSeconds.toFixed(1)} CPU-s, exit ${run.exitCode}`);
    rows.push({ name, cpu: run.cpuSeconds, wall: run.wallSeconds, exitCode: run.exitCode });
  }
  const total = rows.reduce((sum, row) => sum + row.cpu, 0);
  rows.sort((a, b) => b.cpu - a.cpu);
  console.log('');
  printTable(
    rows.map((row) => ({
      'package, its tests alone': row.name,
      'CPU s': row.cpu.toFixed(1),
      share: `${((100 * row.cpu) / total).toFixed(1)} %`,
      'wall s': row.wall.toFixed(1),
      exit: String(row.exitCode),
    })),
  );
  const cores = availableParallelism();
  console.log(
    `\n${only ? 'these' : 'all'} packages: ${total.toFixed(0)} CPU-seconds, so no less than ${(total / cores / 60).toFixed(1)} min of wall time on ${cores} cores`,
  );
}

/** Whether a package's vitest report was written by this run of the test command. */
export const withinRun = (
  report: Pick<PackageTimings, 'startedAt' | 'endedAt'>,
  run: Pick<TurboRun, 'execution'>,
) => report.startedAt >= run.execution.startTime && report.endedAt <= run.execution.endTime;

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

const bench: BenchModule = {
  title: 'Test suite: the README test command, slowest packages and files',
  async run() {
    if (process.env.BENCH_TEST_CPU === '1') await cpuPerPackage();
    if (process.env.BENCH_TEST_RUN === '1') await runTestCommand();
    const run = newestTestRun();
    const files: { file: string; ms: number; importMs: number; cpu?: number; status: string }[] = [];
    let passed = 0;
    let failed = 0;
    // A package's report is its newest vitest run's: a narrow `vitest run` after the test command
    // overwrites it, and a task turbo replayed from its cache left an older one. Those are not the
    // newest test command's, so they are named, not counted.
    const otherRuns: string[] = [];
    let counted = 0;
    for (const dir of workspaceDirs()) {
      const report = JSON.parse(readFileSync(join(root, dir, REPORT), 'utf8')) as PackageTimings;
      if (run && !withinRun(report, run)) {
        otherRuns.push(dir);
        continue;
      }
      counted++;
      for (const timing of report.files) {
        passed += timing.passed;
        failed += timing.failed;
        files.push({
          file: join(dir, timing.file),
          ms: timing.totalMs,
          importMs: timing.importMs,
          ...(timing.cpuSeconds !== undefined && { cpu: timing.cpuSeconds }),
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
          `${failedTasks} failed; ${passed} tests passed, ${failed} failed` +
          (otherRuns.length > 0
            ? ` in the ${counted} packages whose reports it wrote (${otherRuns.length === 1 ? "1 package's report is" : `${otherRuns.length} packages' reports are`} from another run, not counted: ${otherRuns.join(', ')})`
            : '') +
          '\n',
      );
      // Inside the command, wall times side by side say how crowded the machine was; the CPU
      // seconds each suite took (the test command measures them) say what made it long.
      const byCost = tasks
        .map((task) => ({
          name: task.package,
          ms: task.execution!.endTime - task.execution!.startTime,
          cpu: task.cpuSeconds,
        }))
        .sort((a, b) => (b.cpu ?? 0) - (a.cpu ?? 0) || b.ms - a.ms)
        .slice(0, SLOWEST);
      const totalCpu = tasks.reduce((sum, task) => sum + (task.cpuSeconds ?? 0), 0);
      printTable(
        byCost.map((task) => ({
          [totalCpu > 0 ? 'costliest packages' : 'slowest packages']: task.name,
          wall: seconds(task.ms),
          'CPU s': task.cpu === undefined ? 'not measured' : task.cpu.toFixed(0),
          share:
            task.cpu === undefined || totalCpu === 0 ? '' : `${((100 * task.cpu) / totalCpu).toFixed(0)} %`,
        })),
      );
      if (totalCpu > 0) {
        const build =
          run.buildCpuSeconds === undefined
            ? ''
            : `, and ${run.buildCpuSeconds.toFixed(0)} in the build step`;
        console.log(`\nthe suites took ${totalCpu.toFixed(0)} CPU-seconds in all${build}`);
      }
      console.log('');
    }
    // By CPU where the files' reports have it (vitest.cpu.ts): inside the test command, a file's wall
    // says mostly how long it waited.
    const byCpu = files.some((entry) => entry.cpu !== undefined);
    files.sort((a, b) => (byCpu ? (b.cpu ?? 0) - (a.cpu ?? 0) : 0) || b.ms - a.ms);
    printTable(
      files.slice(0, SLOWEST).map((entry) => ({
        [`${byCpu ? 'costliest' : 'slowest'} ${SLOWEST} files`]: entry.file,
        time: seconds(entry.ms),
        'of it import': seconds(entry.importMs),
        'CPU s': entry.cpu === undefined ? 'not measured' : entry.cpu.toFixed(1),
        status: entry.status,
      })),
    );
  },
};

export default bench;

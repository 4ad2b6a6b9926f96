/**
 * The CPU time of a command and of every process it started and waited for (vitest's workers, the
 * servers and browsers a test starts): what `time` prints as user + sys.
 *
 * Why: the test command runs every package at once on two cores, so a package's wall time says how
 * crowded the machine was, not what the package costs. Its CPU seconds, run alone, do; and the whole
 * command's CPU seconds beside the sum of its packages' show what running them side by side adds.
 *
 * How: through scripts/measure-cpu.mjs, the wrapper the test command runs each package's suite
 * through (scripts/child-cpu.mjs reads /proc). Linux only; elsewhere `undefined`.
 */
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { reportedCpuSeconds } from '@bnpl-kit/scripts/child-cpu.mjs';

export interface TreeRun {
  exitCode: number;
  wallSeconds: number;
  /** user + sys of the command's whole process tree; undefined where /proc is not available. */
  cpuSeconds: number | undefined;
}

const MEASURE_CPU = createRequire(import.meta.url).resolve('@bnpl-kit/scripts/measure-cpu.mjs');

/**
 * Runs `command` (argv, no shell parsing) in `cwd`, its output passed through to ours unless
 * `quiet`, and reports its exit code, wall time and the CPU of its process tree.
 */
export async function runMeasured(
  command: readonly string[],
  options: { cwd: string; env?: NodeJS.ProcessEnv; quiet?: boolean },
): Promise<TreeRun> {
  const started = performance.now();
  const output = options.quiet ? 'ignore' : 'inherit';
  const child = spawn(process.execPath, [MEASURE_CPU, '--report-fd=3', ...command], {
    cwd: options.cwd,
    env: options.env ?? process.env,
    stdio: ['ignore', output, output, 'pipe'],
  });
  let report = '';
  child.stdio[3]?.on('data', (chunk: Buffer) => {
    report += chunk.toString();
  });
  const exitCode = await new Promise<number>((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code) => resolve(code ?? 1));
  });
  return {
    exitCode,
    wallSeconds: (performance.now() - started) / 1000,
    cpuSeconds: reportedCpuSeconds(report),
  };
}

/**
 * The CPU time of a command and of every process it started and waited for (vitest's workers, the
 * servers and browsers a test starts): what `time` prints as user + sys.
 *
 * Why: the test command runs every package at once on two cores, so a package's wall time says how
 * crowded the machine was, not what the package costs. Its CPU seconds, run alone, do; and the whole
 * command's CPU seconds beside the sum of its packages' show what running them side by side adds.
 *
 * How: Node reports only its own process's usage (getrusage's RUSAGE_SELF), so a shell runs the
 * command, waits for it, and prints its own /proc/<pid>/stat, whose cutime and cstime hold the CPU of
 * every child it waited for (and, through them, of theirs). Linux only; elsewhere `undefined`.
 */
import { execFileSync, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';

export interface TreeRun {
  exitCode: number;
  wallSeconds: number;
  /** user + sys of the command's whole process tree; undefined where /proc is not available. */
  cpuSeconds: number | undefined;
}

const MARK = '@@process-tree-cpu@@';

/**
 * cutime + cstime (fields 16 and 17) of a /proc/<pid>/stat line, in clock ticks. The second field,
 * the command's name, is in parentheses and may itself hold spaces and parentheses, so the fields
 * are counted from the last ')'.
 */
export function childTicks(statLine: string): number {
  const rest = statLine
    .slice(statLine.lastIndexOf(')') + 2)
    .trim()
    .split(/\s+/);
  // rest[0] is field 3 (state): field n is rest[n - 3].
  const cutime = Number(rest[13]);
  const cstime = Number(rest[14]);
  if (!Number.isInteger(cutime) || !Number.isInteger(cstime))
    throw new Error(`not a /proc/<pid>/stat line: ${statLine.slice(0, 80)}`);
  return cutime + cstime;
}

let ticksPerSecond: number | undefined;
function clockTicks(): number {
  ticksPerSecond ??= Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
  return ticksPerSecond;
}

/**
 * Runs `command` (argv, no shell parsing) in `cwd`, its output passed through to ours unless
 * `quiet`, and reports its exit code, wall time and the CPU of its process tree.
 */
export async function runMeasured(
  command: readonly string[],
  options: { cwd: string; env?: NodeJS.ProcessEnv; quiet?: boolean },
): Promise<TreeRun> {
  const measurable = existsSync('/proc/self/stat');
  // "$@" is the command; the stat line goes to fd 3, away from the command's own output.
  const script = `"$@"; code=$?; printf '${MARK}%s\\n' "$(cat /proc/$$/stat)" >&3; exit $code`;
  const started = performance.now();
  const child = measurable
    ? spawn('sh', ['-c', script, 'sh', ...command], {
        cwd: options.cwd,
        env: options.env ?? process.env,
        stdio: ['ignore', options.quiet ? 'ignore' : 'inherit', options.quiet ? 'ignore' : 'inherit', 'pipe'],
      })
    : spawn(command[0]!, command.slice(1), {
        cwd: options.cwd,
        env: options.env ?? process.env,
        stdio: ['ignore', options.quiet ? 'ignore' : 'inherit', options.quiet ? 'ignore' : 'inherit'],
      });
  let report = '';
  child.stdio[3]?.on('data', (chunk: Buffer) => {
    report += chunk.toString();
  });
  const exitCode = await new Promise<number>((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code) => resolve(code ?? 1));
  });
  const wallSeconds = (performance.now() - started) / 1000;
  const stat = report.split('\n').find((line) => line.startsWith(MARK));
  const cpuSeconds = stat ? childTicks(stat.slice(MARK.length)) / clockTicks() : undefined;
  return { exitCode, wallSeconds, cpuSeconds };
}

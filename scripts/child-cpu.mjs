/**
 * The CPU time of the processes this one started and waited for, read from /proc (Linux).
 *
 * Why: Node reports only its own process's usage (`process.cpuUsage()`, getrusage's RUSAGE_SELF),
 * but a reaped child's user and system time, with that of every child it reaped in turn, is added
 * to its parent's cutime and cstime (/proc/<pid>/stat, fields 16 and 17). So a process that starts
 * one command and waits for it knows that command's CPU, its whole waited-for tree included
 * (measure-cpu.mjs). A process that was never waited for (a daemon, an orphan) is not counted.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';

/**
 * cutime + cstime of a /proc/<pid>/stat line, in clock ticks. The second field, the command's name,
 * is in parentheses and may itself hold spaces and parentheses, so fields are counted from the last ')'.
 * @param {string} statLine
 * @returns {number}
 */
export function childTicks(statLine) {
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

/** @type {number | undefined} */
let ticksPerSecond;

/**
 * CPU seconds of the children this process has waited for so far; undefined without /proc.
 * @returns {number | undefined}
 */
export function waitedChildrenCpuSeconds() {
  if (!existsSync('/proc/self/stat')) return undefined;
  // Read before asking getconf, whose own process would be counted otherwise.
  const ticks = childTicks(readFileSync('/proc/self/stat', 'utf8'));
  ticksPerSecond ??= Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
  return ticks / ticksPerSecond;
}

/**
 * The CPU seconds in what measure-cpu.mjs wrote on its report descriptor (`{"cpuSeconds":N}`), or
 * undefined when it wrote nothing (no /proc).
 * @param {string} report
 * @returns {number | undefined}
 */
export function reportedCpuSeconds(report) {
  const line = report.split('\n').find((text) => text.startsWith('{'));
  const value = line ? JSON.parse(line).cpuSeconds : undefined;
  return typeof value === 'number' ? value : undefined;
}

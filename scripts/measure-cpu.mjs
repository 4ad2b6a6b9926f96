#!/usr/bin/env node
/**
 * `node scripts/measure-cpu.mjs --report-fd=3 <command> [args…]`: runs the command (its output
 * passed through), exits as it did, and writes `{"cpuSeconds":N}` (child-cpu.mjs's `reportedCpuSeconds` reads it) on the file descriptor the caller
 * opened for it (3 here; never one it did not name: a Node process's own fds start at 3): the CPU of
 * the command and of everything it started and waited for (child-cpu.mjs says how). Without /proc
 * it writes nothing.
 *
 * The test command runs each package's suite through it, so that every run says what each package
 * cost inside the whole command (issue 36: on two cores the command is CPU-bound, and a package's
 * wall time side by side says only how crowded the machine was); `pnpm bench test-suite` measures
 * the whole command through it too.
 *
 * Signals: a supervisor's SIGTERM is passed on to the command. SIGINT is not: Ctrl-C in a terminal
 * reaches the command itself (one process group), and this process stays to report and exit with it.
 */
import { spawn } from 'node:child_process';
import { writeSync } from 'node:fs';
import { constants } from 'node:os';
import { waitedChildrenCpuSeconds } from './child-cpu.mjs';

const [option = '', command, ...args] = process.argv.slice(2);
const reportFd = Number(/^--report-fd=(\d+)$/.exec(option)?.[1] ?? Number.NaN);
if (!Number.isInteger(reportFd) || !command) {
  process.stderr.write('usage: node scripts/measure-cpu.mjs --report-fd=<fd> <command> [args…]\n');
  process.exit(2);
}

const child = spawn(command, args, { stdio: 'inherit' });
process.on('SIGTERM', () => child.kill('SIGTERM'));
process.on('SIGINT', () => {});
child.on('error', (error) => {
  process.stderr.write(`measure-cpu: could not start ${command}: ${error.message}\n`);
  process.exit(127);
});
child.on('close', (code, signal) => {
  const cpuSeconds = waitedChildrenCpuSeconds();
  if (cpuSeconds !== undefined) writeSync(reportFd, `${JSON.stringify({ cpuSeconds })}\n`);
  // A command killed by a signal exits as a shell reports it: 128 + the signal's number.
  process.exit(code ?? 128 + (constants.signals[signal] ?? 0));
});

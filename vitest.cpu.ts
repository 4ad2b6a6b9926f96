/**
 * A setup file (run before each test file, in the worker that runs it) that records the file's CPU
 * seconds in the file's task meta, where the timings reporter (vitest.timings.ts) reads them.
 *
 * Why: the test command is CPU-bound on two cores, and its log says what each package cost
 * (scripts/measure-cpu.mjs); within a package, wall time says little, since most files mostly wait.
 * What is counted: the worker's own CPU from this setup file on (the file's import, its hooks and
 * tests) and the CPU of the processes the worker started and waited for meanwhile (markets, CLIs,
 * npm; scripts/child-cpu.mjs). A worker runs one file at a time, so the two are the file's. Not
 * counted: a process the file left running (it is the next file's, or nobody's), and the worker's
 * start, which precedes any file.
 */
import { afterAll } from 'vitest';
import { waitedChildrenCpuSeconds } from './scripts/child-cpu.mjs';
import type { FileCpuMeta } from './vitest.timings.ts';

function cpuSeconds(): number {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1e6 + (waitedChildrenCpuSeconds() ?? 0);
}

// Read when this setup file runs, before the test file is imported: its import is the file's cost.
const startedAt = cpuSeconds();

// The first argument must be a destructuring pattern (vitest reads it for fixtures); none is used.
// biome-ignore lint/correctness/noEmptyPattern: vitest's fixture parser refuses a plain name there
afterAll(({}, suite) => {
  (suite.meta as FileCpuMeta).cpuSeconds = Math.round((cpuSeconds() - startedAt) * 100) / 100;
});

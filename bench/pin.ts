/**
 * CPU pinning for the HTTP benchmarks (Linux `taskset`): the server under test gets one core (its
 * libuv and Web Crypto threads too), the load generator the other, so the two do not fight over
 * every core and the numbers do not mostly measure the scheduler. BENCH_PIN=0 turns it off.
 */
import { execFileSync } from 'node:child_process';
import { availableParallelism } from 'node:os';

/*
 * Read once, before anything is pinned: `availableParallelism()` counts the CPUs this process may
 * run on, so once pinned to one it says 1. Read at unpin time, that "unpinned" the load generator
 * to CPU 0 alone, and the next benchmark of the same `pnpm bench` run found one CPU, ran unpinned,
 * and forked every child (server, service) onto CPU 0 with it.
 */
const CPUS = availableParallelism();

export const SERVER_CPU = '1';
export const LOAD_CPU = '0';
let pinned = false;

export function pin(pid: number, cpu: string): boolean {
  try {
    execFileSync('taskset', ['-a', '-p', '-c', cpu, String(pid)], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

/** Pins this process (the load generator); true when pinning is on. */
export function pinLoadGenerator(): boolean {
  pinned = process.env.BENCH_PIN !== '0' && CPUS >= 2 && pin(process.pid, LOAD_CPU);
  return pinned;
}

export function unpinLoadGenerator(): void {
  if (pinned) pin(process.pid, `0-${CPUS - 1}`);
  pinned = false;
}

/** Pins a freshly forked server child to its core, when pinning is on. */
export function pinServer(pid: number | undefined): void {
  if (pinned && pid !== undefined) pin(pid, SERVER_CPU);
}

export function isPinned(): boolean {
  return pinned;
}

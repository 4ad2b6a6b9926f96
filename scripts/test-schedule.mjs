/**
 * The order in which the whole test command starts the package suites: the longest first.
 *
 * Why: on two cores the command is CPU-bound, so it ends when the last suite ends, and a long suite
 * started late is the tail, with a core idle. `turbo run test` cannot be told an order: its tasks
 * take concurrency slots first come, first served, and each test task waits on a chain of no-op
 * `transit` tasks (one per package it depends on) that queue for the same slots, so the deepest
 * packages, which are the longest suites, started last (a fresh clone on the fast kind: the
 * runtimes suite at 244 s, the README tests at 322 s, of a 613 s command).
 *
 * Measured walls of each suite inside the whole command (issue 36's notes, a fresh clone's `.ci/run`
 * on the fast kind, 2026-11-30, after the basic-mode certify runs that repeated another stack's were
 * cut to `modeSmokeChecks`): reference-server 441 s, contract-tests 432, contract-fuzz 415, runtimes
 * 385, readme-examples 339, nextjs-example 252, store 179 (with PostgreSQL and PgBouncer, as CI has
 * them; 112–132 without PgBouncer: started eighth, when readme-examples ended, it was the command's
 * tail by 8 s), browser-e2e 167, cli 103, scripts 95; every other one under 50. The first ones start
 * at once (three per core, test-concurrency.mjs), the rest as those end.
 */
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';

export const LONGEST_FIRST = [
  '@bnpl-kit/contract-tests',
  '@bnpl-kit/runtimes',
  '@bnpl-kit/reference-server',
  '@bnpl-kit/contract-fuzz',
  '@bnpl-kit/readme-examples',
  '@bnpl-kit/nextjs-example',
  '@bnpl-kit/store',
  '@bnpl-kit/browser-e2e',
  '@bnpl-kit/cli',
  '@bnpl-kit/scripts',
];

/**
 * The packages the test command runs a suite for, as turbo finds them (`turbo run test --dry=json`:
 * the packages that have a `test` script). One list for the test command, its test and `pnpm bench
 * test-suite`.
 * @param {string} root the repository's root
 * @returns {string[]}
 */
export function testedPackages(root) {
  const dryRun = JSON.parse(
    execFileSync(join(root, 'node_modules', '.bin', 'turbo'), ['run', 'test', '--dry=json'], {
      cwd: root,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'inherit'],
      maxBuffer: 64 * 1024 * 1024,
    }),
  );
  return /** @type {{ task: string, package: string, command: string }[]} */ (dryRun.tasks)
    .filter((task) => task.task === 'test' && task.command !== '<NONEXISTENT>')
    .map((task) => task.package);
}

/**
 * `packages` in the order to start them: those in LONGEST_FIRST in its order, then the rest as given.
 * @param {readonly string[]} packages
 * @returns {string[]}
 */
export function startOrder(packages) {
  const rank = (name) => {
    const at = LONGEST_FIRST.indexOf(name);
    return at < 0 ? LONGEST_FIRST.length : at;
  };
  return packages
    .map((name, index) => ({ name, index }))
    .sort((a, b) => rank(a.name) - rank(b.name) || a.index - b.index)
    .map(({ name }) => name);
}

/**
 * Runs `start(item)` for every item, at most `limit` at once, in the order given.
 * @template T
 * @param {readonly T[]} items
 * @param {number} limit
 * @param {(item: T) => Promise<void>} start
 */
export async function inPool(items, limit, start) {
  let next = 0;
  const worker = async () => {
    while (next < items.length) await start(items[next++]);
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
}

/**
 * How many packages' test suites the test command runs at once.
 *
 * Why not turbo's default (10, whatever the machine): a package's suite is itself parallel (vitest
 * workers, the servers, runtimes and browsers its tests start), so ten at once on two cores kept a
 * load average of 20 and spent more CPU on the same work than fewer at once (issue 36's notes: the
 * test command's CPU seconds beside the sum of its packages' alone, `BENCH_TEST_CPU=1 pnpm bench
 * test-suite`). Three per core keeps every core busy while some suites wait on servers and timeouts.
 * Measured (issue 36's notes, whole command, quiet 2-core machines): on the slower kind 10 → 6 took
 * the test step from 19 m 53 s to 15 m 00 s; on the faster kind 10 and 6 cost the same (10 m 07 s /
 * 1,097 CPU-s against 10 m 17 s / 1,103), and 30 cost 7 % more CPU.
 */
export const PACKAGES_PER_CORE = 3;

/** Three packages per core, and never fewer than two. */
const packagesAtOnce = (cores) => Math.max(2, PACKAGES_PER_CORE * cores);

/** turbo's arguments for `run test`: the caller's, with a concurrency for `cores` unless they gave one. */
export function withTestConcurrency(args, cores) {
  if (args.some((arg) => arg === '--concurrency' || arg.startsWith('--concurrency='))) return [...args];
  return [`--concurrency=${packagesAtOnce(cores)}`, ...args];
}

/**
 * The whole command's own pool: how many packages at once, from the caller's `--concurrency` in
 * either spelling (`=N`, ` N`, or turbo's `N%` of the cores), else three per core; and the other
 * arguments, to pass on to each package's turbo.
 * @param {readonly string[]} args
 * @param {number} cores
 * @returns {{ limit: number, rest: string[] }}
 */
export function splitConcurrency(args, cores) {
  const rest = [];
  let given;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i];
    if (arg === '--concurrency') given = args[++i];
    else if (arg.startsWith('--concurrency=')) given = arg.slice('--concurrency='.length);
    else rest.push(arg);
  }
  if (given === undefined) return { limit: packagesAtOnce(cores), rest };
  const percent = /^(\d+(?:\.\d+)?)%$/.exec(given);
  const limit = percent ? Math.floor((Number(percent[1]) / 100) * cores) : Number(given);
  if (!Number.isInteger(limit) || limit < 1)
    throw new Error(
      `--concurrency ${given}: not a number of packages (or a percentage of the cores) of at least one`,
    );
  return { limit, rest };
}

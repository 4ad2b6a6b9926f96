/**
 * How many packages' test suites the test command runs at once.
 *
 * Why not turbo's default (10, whatever the machine): a package's suite is itself parallel (vitest
 * workers, the servers, runtimes and browsers its tests start), so ten at once on two cores kept a
 * load average of 20 and spent more CPU on the same work than fewer at once (issue 36's notes: the
 * test command's CPU seconds beside the sum of its packages' alone, `BENCH_TEST_CPU=1 pnpm bench
 * test-suite`). Three per core keeps every core busy while some suites wait on servers and timeouts.
 */
export const PACKAGES_PER_CORE = 3;

/** turbo's arguments for `run test`: the caller's, with a concurrency for `cores` unless they gave one. */
export function withTestConcurrency(args, cores) {
  if (args.some((arg) => arg === '--concurrency' || arg.startsWith('--concurrency='))) return [...args];
  return [`--concurrency=${Math.max(2, PACKAGES_PER_CORE * cores)}`, ...args];
}

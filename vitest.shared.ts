import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { defineConfig, mergeConfig } from 'vitest/config';
import TimingsReporter from './vitest.timings.ts';

// Workspace packages export a "source" condition that points at src/, so tests run against the
// TypeScript sources and never wait for a build (tRPC does the same with aliases). Only "source"
// and "node" are added for SSR: Vitest hands these to Node as --conditions, and an "import"
// condition there makes CJS packages such as pg load the wrong build.
const shared = defineConfig({
  resolve: { conditions: ['source', 'import', 'module', 'default'] },
  ssr: { resolve: { conditions: ['source', 'node'] } },
  test: {
    // For integration packages (real servers, databases, browsers, child processes): generous, not
    // tight, because CI runs every package's suite at once on two shared cores, where a test that
    // takes 20 s alone took 80 s (a restart test with two PGlite starts) and five README commands
    // took over 120 s. A timeout only says "hung"; no test relies on it for timing. Unit packages
    // use `unitConfig` below instead, so that a hang there shows in seconds. 240 s was not enough
    // on a slower day of the same machine: strict certify runs of the Bun, Deno and workerd servers
    // passed in ~100 s alone and hit 240 s with every package's suite running (issue 36's notes).
    // 600 s was not enough on a slower kind of machine (2026-12-01, a quiet one): the Prism
    // certify run of the data-sharing server took 553 s and 612 s (timed out), the data-sharing
    // reference server's strict run 471 s, the runtimes' reference servers 348 s; a busy machine
    // stretches those by half again. 25 minutes is what the README projects' tests already had.
    testTimeout: 1_500_000,
    hookTimeout: 1_500_000,
    include: ['test/**/*.test.ts', 'src/**/*.test.ts'],
    // Every run also leaves each file's time in the package's node_modules, which `pnpm bench
    // test-suite` reads for the slowest files (the console output is unchanged).
    reporters: ['default', new TimingsReporter()],
    // Global fetch in test workers opens a connection per request (why: vitest.fetch.ts); each
    // file's CPU seconds are recorded for the timings reporter (vitest.cpu.ts).
    setupFiles: [
      fileURLToPath(new URL('./vitest.fetch.ts', import.meta.url)),
      fileURLToPath(new URL('./vitest.cpu.ts', import.meta.url)),
    ],
  },
});

export default shared;

/**
 * Files at once for an integration package whose files mostly wait (on servers, child processes,
 * other runtimes, Prism, a browser) rather than compute. Vitest's default is one fewer than the
 * cores: one file at a time on two cores, so such a package's long files ran one after another and
 * were the test command's tail, with a core idle (issue 36: tools/runtimes' two files, 189 s and
 * 163 s, back to back; contract-fuzz's certify runs through Prism, 298 s in one file).
 */
export const WAITING_FILES_AT_ONCE = Math.max(2, availableParallelism() - 1);

/**
 * Packages whose tests run in-process, without databases, browsers or child processes (in-process
 * HTTP servers on 127.0.0.1 at most): 30 s per test and hook, 10 times what their slowest test
 * took with every package's suite running at once on two shared cores. A test doing thousands of
 * CPU-bound operations on purpose (property tests) says so with its own, longer timeout.
 */
export const unitConfig = mergeConfig(
  shared,
  defineConfig({ test: { testTimeout: 30_000, hookTimeout: 30_000 } }),
);

/**
 * Unit packages whose files share no global state (no module mocks, no globals replaced, fake
 * timers and spies restored by the test that set them): their files run one after another in the
 * same worker, so Node, vitest and the package's modules load once per worker instead of once per
 * file, which was most of these packages' time (repo-checks: 11.9 → 7.2 CPU-seconds).
 */
export const sharedWorkerUnitConfig = mergeConfig(unitConfig, defineConfig({ test: { isolate: false } }));

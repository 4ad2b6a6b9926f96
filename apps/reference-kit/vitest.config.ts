import { defineConfig } from 'vitest/config';
import shared, { WAITING_FILES_AT_ONCE } from '../../vitest.shared.ts';

/**
 * Files that change what the whole process shares run each in a fresh worker:
 * - metrics and worker-metrics assert exact counter values (`… 1`) read from the process's one
 *   global MeterProvider, which every earlier server in the same worker would have counted into;
 * - run-signals and drain-under-polling own SIGINT/SIGTERM and their shutdown arms a `process.exit(0)` timer (unref'd, 2 s)
 *   that outlives the test and would end a shared worker in the middle of the next file;
 * - telemetry-otlp mocks modules and calls vi.resetModules, after which a later file's
 *   installTelemetry would build a second SDK whose providers the OpenTelemetry globals refuse.
 * Every other file starts and closes its own servers, stores, services and children, so those run
 * one after another in one worker: Node, vitest, the kit's modules and PGlite's WebAssembly load
 * and compile once instead of once per file (whole package, 21 files, user+sys CPU: 129 → 108 s;
 * the eleven in-process files with fuzz: 68.5 → 45.0 s).
 */
const ISOLATED_FILES = [
  'test/metrics.test.ts',
  'test/worker-metrics.test.ts',
  'test/run-signals.test.ts',
  'test/drain-under-polling.test.ts',
  'test/telemetry-otlp.test.ts',
];

// Each project names its own files (a project's `include` would add to an inherited one).
const { include = [], ...test } = shared.test ?? {};

export default defineConfig({
  ...shared,
  test: {
    ...test,
    // Most files start servers (child processes) and wait on them: two at once.
    maxWorkers: WAITING_FILES_AT_ONCE,
    projects: [
      { extends: true, test: { name: 'isolated', include: ISOLATED_FILES } },
      { extends: true, test: { name: 'shared-worker', include, exclude: ISOLATED_FILES, isolate: false } },
    ],
  },
});

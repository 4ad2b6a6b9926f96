import { defineConfig, mergeConfig } from 'vitest/config';
import shared, { WAITING_FILES_AT_ONCE } from '../../vitest.shared.ts';

/**
 * The store's files share a worker: each file sets up and tears down its own databases (a random
 * schema on PostgreSQL, its own PgBouncer on a free port, its own PGlite directory) and processes and
 * replaces no global (fake timers are restored by the test that set them), and a fresh worker per
 * file loaded Node, vitest, the store and PGlite's WebAssembly (compiled once per process, then
 * shared by every PGlite it starts) again for every file.
 *
 * Two workers, not vitest's one on two cores: with PostgreSQL and PgBouncer, as CI has them, the
 * files took 197 s one after another, mostly waiting (the PgBouncer file 57 s for 0.9 CPU-seconds,
 * the restart file 55 s), and the store was the test command's tail by 47 s (issue 36's notes).
 */
export default mergeConfig(
  shared,
  defineConfig({
    test: { isolate: false, maxWorkers: WAITING_FILES_AT_ONCE, setupFiles: ['test/setup.ts'] },
  }),
);

import { defineConfig, mergeConfig } from 'vitest/config';
import shared, { WAITING_FILES_AT_ONCE } from '../../vitest.shared.ts';

/**
 * The CLI's files share their workers (one after another in each): each runs the program in-process
 * or starts its own children, servers, stores and temporary files, closes what it started, and
 * replaces no global (the sandbox command's signal listeners are removed when it stops). A fresh
 * worker per file loaded Node, vitest, the CLI and the kit's modules (and PGlite's WebAssembly, for
 * the database commands) again for each of the ten files. Two workers, since the certify files
 * mostly wait on the servers they start (vitest.shared.ts).
 */
export default mergeConfig(
  shared,
  defineConfig({ test: { isolate: false, maxWorkers: WAITING_FILES_AT_ONCE } }),
);

import { defineConfig, mergeConfig } from 'vitest/config';
import shared from '../../vitest.shared.ts';

/**
 * The store's files run one after another in one worker: each file sets up and tears down its own
 * databases and processes and replaces no global (fake timers are restored by the test that set
 * them), and a fresh worker per file loaded Node, vitest, the store and PGlite's WebAssembly
 * (compiled once per process, then shared by every PGlite it starts) again for every file.
 */
export default mergeConfig(shared, defineConfig({ test: { isolate: false, setupFiles: ['test/setup.ts'] } }));

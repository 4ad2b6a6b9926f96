import { defineConfig, mergeConfig } from 'vitest/config';
import shared from '../../vitest.shared.ts';

/**
 * The sandbox's files run one after another in one worker: each starts and closes its own
 * sandboxes, HTTP servers, stores and msw servers, and none replaces a global, mocks a module or
 * adds a signal listener. A fresh worker per file loaded Node, vitest, msw, hono and the kit's
 * modules again for each of its twenty files: the package's tests took 17.8 CPU-seconds isolated
 * and 4.7 shared (machine-wide user+sys, twice each, quiet 2-core machine), 27 s → 16 s of wall.
 */
export default mergeConfig(shared, defineConfig({ test: { isolate: false } }));

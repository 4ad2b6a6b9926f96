import { fileURLToPath } from 'node:url';
import { defineConfig, mergeConfig } from 'vitest/config';
import shared, { WAITING_FILES_AT_ONCE } from '../../vitest.shared.ts';

// The adapter behaviour suite is contract-tests' test support, not a published entry: it is
// reached under this name (tsconfig.json maps it alike for the type-check).
export default mergeConfig(
  shared,
  defineConfig({
    // Each file waits on Bun, Deno and workerd servers it started: side by side.
    test: { maxWorkers: WAITING_FILES_AT_ONCE },
    resolve: {
      alias: {
        '@bnpl-kit/contract-tests/behaviour-suite': fileURLToPath(
          new URL('../../contract-tests/test/support/adapter-behaviour-suite.ts', import.meta.url),
        ),
      },
    },
  }),
);

import { fileURLToPath } from 'node:url';
import { defineConfig, mergeConfig } from 'vitest/config';
import shared from '../../vitest.shared.ts';

// The contract suite's adapter suites are contract-tests' test support, not a published entry:
// they are reached under this name (tsconfig.json maps it alike for the type-check). Each file here
// runs in a worker of its own (Next patches the global fetch), two at once.
export default mergeConfig(
  shared,
  defineConfig({
    resolve: {
      alias: {
        '@bnpl-kit/contract-tests/test-support': fileURLToPath(
          new URL('../../contract-tests/test/support', import.meta.url),
        ),
      },
    },
    test: { maxWorkers: 2 },
  }),
);

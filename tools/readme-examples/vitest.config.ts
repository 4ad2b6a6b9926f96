import { fileURLToPath } from 'node:url';
import { defineConfig, mergeConfig } from 'vitest/config';
import shared, { WAITING_FILES_AT_ONCE } from '../../vitest.shared.ts';

// The README tests install the kit from its packed packages: packed once, before every file. The
// contract suite's test support (which adapters it leaves to these READMEs) is not a published
// entry: it is reached under this name (tsconfig.json maps it alike for the type-check).
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
    test: { globalSetup: ['./test/pack-once.ts'], maxWorkers: WAITING_FILES_AT_ONCE },
  }),
);

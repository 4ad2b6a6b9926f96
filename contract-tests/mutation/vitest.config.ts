import { defineConfig } from 'vitest/config';

// Self-contained (no import of ../vitest.config.ts → ../../vitest.shared.ts): Stryker runs this from
// its sandbox copy of the package (mutation/.stryker-tmp/sandbox-…), where the repository root is
// not the parent directory. The conditions are the shared config's: workspace packages load from
// src/ ("source"), and "import" stays out of the SSR conditions (see ../vitest.config.ts).
export default defineConfig({
  resolve: { conditions: ['source', 'import', 'module', 'default'] },
  ssr: { resolve: { conditions: ['source', 'node'] } },
  test: {
    include: ['mutation/**/*.test.ts'],
    testTimeout: 240_000,
    hookTimeout: 240_000,
    // One failed check is enough to kill a mutant: the test throws on it (certify-conformance.test.ts).
    bail: 1,
  },
});

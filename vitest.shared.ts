import { defineConfig } from 'vitest/config';

// Workspace packages export a "source" condition that points at src/, so tests run against the
// TypeScript sources and never wait for a build (tRPC does the same with aliases). Only "source"
// and "node" are added for SSR: Vitest hands these to Node as --conditions, and an "import"
// condition there makes CJS packages such as pg load the wrong build.
export default defineConfig({
  resolve: { conditions: ['source', 'import', 'module', 'default'] },
  ssr: { resolve: { conditions: ['source', 'node'] } },
  test: {
    // Generous, not tight: many tests start real servers, databases and browsers, and the CI
    // machine runs every package's suite at once on two shared cores, where a test that takes 20 s
    // alone took 80 s (a restart test with two PGlite starts) and five README commands took over
    // 120 s. A timeout here only says "hung"; no test relies on it for timing, so no test sets a
    // shorter one of its own.
    testTimeout: 240_000,
    hookTimeout: 240_000,
    include: ['test/**/*.test.ts', 'src/**/*.test.ts'],
  },
});

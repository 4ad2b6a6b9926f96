import { defineConfig } from 'vitest/config';

// Workspace packages export a "source" condition that points at src/, so tests run against the
// TypeScript sources and never wait for a build (tRPC does the same with aliases).
export default defineConfig({
  resolve: { conditions: ['source', 'import', 'module', 'default'] },
  ssr: { resolve: { conditions: ['source', 'import', 'module', 'node', 'default'] } },
  test: {
    testTimeout: 20_000,
    hookTimeout: 30_000,
    include: ['test/**/*.test.ts', 'src/**/*.test.ts'],
  },
});

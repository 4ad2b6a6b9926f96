import { defineConfig } from 'vitest/config';
import shared from '../vitest.shared.ts';

// Vitest hands ssr.resolve.conditions to its Node workers as --conditions; with "import" among them,
// Node's require() of a dual package (is-promise, used by Express's router) loads the ESM build and
// gets a namespace object instead of the function. Vite adds import/require by itself.
const ssrConditions = (shared.ssr?.resolve?.conditions ?? []).filter((c) => c !== 'import');

export default defineConfig({
  ...shared,
  ssr: { ...shared.ssr, resolve: { ...shared.ssr?.resolve, conditions: ssrConditions } },
});

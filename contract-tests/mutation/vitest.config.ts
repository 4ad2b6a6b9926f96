import { defineConfig } from 'vitest/config';
import base from '../vitest.config.ts';

// Stops at the first failure: one failed check is enough to kill a mutant.
export default defineConfig({
  ...base,
  test: { ...base.test, include: ['mutation/**/*.test.ts'], bail: 1 },
});

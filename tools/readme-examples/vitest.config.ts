import { defineConfig, mergeConfig } from 'vitest/config';
import shared, { WAITING_FILES_AT_ONCE } from '../../vitest.shared.ts';

// The README tests install the kit from its packed packages: packed once, before every file.
export default mergeConfig(
  shared,
  defineConfig({ test: { globalSetup: ['./test/pack-once.ts'], maxWorkers: WAITING_FILES_AT_ONCE } }),
);

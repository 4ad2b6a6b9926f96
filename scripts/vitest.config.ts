import { defineConfig, mergeConfig } from 'vitest/config';
import shared, { WAITING_FILES_AT_ONCE } from '../vitest.shared.ts';

// The README's commands and the bundled start modules each wait on a server they started.
export default mergeConfig(shared, defineConfig({ test: { maxWorkers: WAITING_FILES_AT_ONCE } }));

import { defineConfig, mergeConfig } from 'vitest/config';
import shared, { WAITING_FILES_AT_ONCE } from '../../vitest.shared.ts';

// Certify through Prism is one file per mode, each mostly waiting on Prism and the server: side by side.
export default mergeConfig(shared, defineConfig({ test: { maxWorkers: WAITING_FILES_AT_ONCE } }));

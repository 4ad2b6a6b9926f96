// Runs before every test file, also when files share one worker (vitest.config.ts).
import { afterAll } from 'vitest';
import { stopPooler } from './helpers/backends.js';

afterAll(stopPooler);

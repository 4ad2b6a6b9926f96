/**
 * `node --import ./record-modules.mjs …`: appends the URL of every module the process resolves to
 * the file named by RECORD_MODULES_TO, one a line. start-modules.test.ts reads it to see which
 * packages a server loaded.
 */
import { register } from 'node:module';

register('./record-modules-hooks.mjs', import.meta.url);

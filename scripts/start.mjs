#!/usr/bin/env node
/**
 * `node scripts/start.mjs [basic|data-sharing]`: a reference server in this one process. It owns
 * its signals (Ctrl-C and SIGTERM stop it gracefully, exit code 0) because nothing stands between
 * it and the user: no package manager, no tsx wrapper. The TypeScript is compiled once and cached
 * (scripts/compile.mjs).
 */
import { dirname } from 'node:path';
import { pathToFileURL } from 'node:url';
import { compile } from './compile.mjs';
import { mapCompiledStackTraces } from './stack-traces.mjs';

const SERVERS = {
  basic: 'apps/basic-server/src/main.ts',
  'data-sharing': 'apps/data-sharing-server/src/main.ts',
};

const mode = process.argv[2] ?? 'basic';
const entry = SERVERS[mode];
if (!entry) {
  process.stderr.write(`usage: node scripts/start.mjs [${Object.keys(SERVERS).join('|')}]\n`);
  process.exit(2);
}
const compiled = await compile(entry, `${mode}-server`);
// Stack traces in TypeScript positions, the map read when a trace needs it (not at every start).
mapCompiledStackTraces(dirname(compiled));
await import(pathToFileURL(compiled).href);

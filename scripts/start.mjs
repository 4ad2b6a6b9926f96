#!/usr/bin/env node
/**
 * `node scripts/start.mjs [basic|data-sharing]`: a reference server in this one process. It owns
 * its signals (Ctrl-C and SIGTERM stop it gracefully, exit code 0) because nothing stands between
 * it and the user: no package manager, no tsx wrapper. The TypeScript is compiled once and cached
 * (scripts/compile.mjs).
 */
import { dirname } from 'node:path';
import { pathToFileURL } from 'node:url';
import { setFlagsFromString } from 'node:v8';
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
if (!process.env.DATABASE_URL?.trim()) {
  // The embedded PGlite is PostgreSQL compiled to WebAssembly. V8 compiles it twice by default (a
  // baseline, then optimised code for hot functions); the baseline alone keeps about 50 MB less
  // resident and, for a development database's short queries, is no slower (measured: 1,000–1,200
  // against 740–780 statements/s on this machine). Set before PGlite's module is compiled.
  setFlagsFromString('--liftoff-only');
}
const compiled = await compile(entry, `${mode}-server`);
// Stack traces in TypeScript positions, the map read when a trace needs it (not at every start).
mapCompiledStackTraces(dirname(compiled));
await import(pathToFileURL(compiled).href);

#!/usr/bin/env node
/**
 * `node scripts/bnpl-kit.mjs …` (or `npx -y pnpm@10 --silent bnpl-kit …`): the CLI from this
 * repository's sources, with nothing but the command's own output on stdout, so that
 * `… keygen --json > key.json` and `… webhook sign … > headers.json` write clean files.
 */
import { dirname } from 'node:path';
import { pathToFileURL } from 'node:url';
import { compile } from './compile.mjs';
import { mapCompiledStackTraces } from './stack-traces.mjs';

// pnpm runs scripts from the repository root; relative paths are meant from where the user typed.
if (process.env.INIT_CWD) process.chdir(process.env.INIT_CWD);
const compiled = await compile('packages/cli/src/bin.ts', 'bnpl-kit');
mapCompiledStackTraces(dirname(compiled));
await import(pathToFileURL(compiled).href);

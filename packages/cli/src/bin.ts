#!/usr/bin/env node
import { runCli } from './index.js';

// No top-level await: the bin is also built as CommonJS.
void runCli(process.argv.slice(2)).then((status) => {
  process.exitCode = status;
});

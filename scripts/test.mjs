#!/usr/bin/env node
/**
 * The README's test command (`npx -y pnpm@10 test`): does its own set-up, then every package's
 * tests. It finds (or installs) the Chromium the browser tests drive, runs turbo with --continue so
 * that one package's failure neither stops nor taints the others, and ends with one line per
 * package that failed and a total. Three packages per core run at once (test-concurrency.mjs says why).
 * Extra arguments go to turbo (e.g. `--filter @bnpl-kit/core`, or `--concurrency=N`).
 */
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensureChromium } from './chromium.mjs';
import { withTestConcurrency } from './test-concurrency.mjs';
import { stripAnsi, summarize } from './test-summary.mjs';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

const chromium = ensureChromium();
if ('error' in chromium) {
  process.stderr.write(`test: ${chromium.error}\n`);
  process.exit(1);
}
process.stderr.write(`test: browser tests use Chromium at ${chromium.path}\n`);

const turbo = join(ROOT, 'node_modules', '.bin', 'turbo');
const turboArgs = withTestConcurrency(process.argv.slice(2), availableParallelism());
const child = spawn(turbo, ['run', 'test', '--continue', '--summarize', ...turboArgs], {
  cwd: ROOT,
  env: { ...process.env, CHROMIUM_PATH: chromium.path },
  stdio: ['inherit', 'pipe', 'inherit'],
});
let output = '';
child.stdout.on('data', (chunk) => {
  process.stdout.write(chunk);
  output += chunk.toString();
});
// Ctrl-C reaches turbo through the terminal; a supervisor's SIGTERM is passed on.
process.on('SIGTERM', () => child.kill('SIGTERM'));
process.on('SIGINT', () => {});
child.on('close', (code, signal) => {
  const runFile = /Summary:\s+(\S+\.json)/.exec(stripAnsi(output))?.[1];
  const run = runFile ? JSON.parse(readFileSync(runFile, 'utf8')) : undefined;
  const status = code ?? 1;
  process.stdout.write(`\n${summarize(output, run)}\n`);
  if (status !== 0 && !run)
    process.stdout.write(`test: turbo exited with ${signal ?? status} before running the tests\n`);
  process.exit(status);
});

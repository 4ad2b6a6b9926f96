/**
 * `bnpl-kit certify` as a user runs it: a separate process (tsx, workspace sources), started first;
 * it prints the configuration; the market under test is then started with exactly those values and
 * certify, which has been waiting for it, runs every data-sharing check and exits 0.
 */
import { spawn } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { afterEach, expect, it } from 'vitest';
import { configFromEnv, freePort, parseExports, type RunningMarket, serveMarket } from './certify-helpers.js';
import { file } from './helpers.js';

const repoRoot = fileURLToPath(new URL('../../..', import.meta.url));
const tsx = fileURLToPath(new URL('../../../node_modules/.bin/tsx', import.meta.url));

let market: RunningMarket | undefined;
afterEach(() => market?.close());

it('prints the configuration, waits for the market started with it, certifies it (exit 0, JUnit report)', async () => {
  const [marketPort, sandboxPort] = [await freePort(), await freePort()];
  const report = file('', 'report.xml');
  const child = spawn(
    tsx,
    [
      '--conditions=source',
      'packages/cli/src/bin.ts',
      'certify',
      '--market-url',
      `http://127.0.0.1:${marketPort}`,
      '--mode',
      'data-sharing',
      '--sandbox-port',
      String(sandboxPort),
      '--report',
      report,
      '--timeout',
      '60',
      // The market here keeps its state in memory and leaves disbursement to its systems: it
      // lacks restarts and disbursement on readiness on purpose.
      '--lacks',
      'restart,disburse-on-readiness',
    ],
    { cwd: repoRoot, env: { ...process.env, NO_COLOR: '1' } },
  );
  let stdout = '';
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const exited = new Promise<number | null>((resolve) => child.on('close', resolve));
  // The configuration block ends with BNPL_CALLBACK_URL; start the market as soon as it is printed.
  const printed = await new Promise<string>((resolve, reject) => {
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      if (/^export BNPL_CALLBACK_URL=.*$/m.test(stdout)) resolve(stdout);
    });
    void exited.then(() =>
      reject(new Error(`certify exited before printing its configuration:\n${stdout}\n${stderr}`)),
    );
  });
  const env = parseExports(printed);
  expect(env).toMatchObject({ MODE: 'sandbox', SERVICE_API_URL: `http://127.0.0.1:${sandboxPort}` });
  expect(env.APP_SIGNING_KEY).toMatch(/^[A-Za-z0-9+/=]{60,}$/);
  market = await serveMarket(configFromEnv(env, 'data-sharing'), marketPort);

  const status = await exited;
  expect(stdout, stderr).toMatch(/PASSED: \d+ checks, \d+ passed, 0 failed, 0 skipped/);
  expect(status).toBe(0);
  const xml = await readFile(report, 'utf8');
  expect(xml).toMatch(/<testsuites [^>]*failures="0"/);
  expect(xml).toContain('name="push-claims.scope-hash-matches-commitments: ');
});

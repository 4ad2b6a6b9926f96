/**
 * `bnpl-kit certify` in-process: the two-step flow of a market that is configured once (the first
 * run saves its keys and prints them; the market starts with them; the second run reuses them), a
 * broken market failing with the check named in the JUnit report, and usage errors.
 */
import { readFile } from 'node:fs/promises';
import { createTestMarket, movesOrdersBackwards } from '@bnpl-kit/contract-tests/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { configFromEnv, freePort, parseExports, type RunningMarket, serveMarket } from './certify-helpers.js';
import { cli, file } from './helpers.js';

let running: RunningMarket | undefined;
afterEach(async () => {
  await running?.close();
  running = undefined;
});

async function certifyArgs(mode: string, extra: string[] = []) {
  const [marketPort, sandboxPort] = [await freePort(), await freePort()];
  const marketUrl = `http://127.0.0.1:${marketPort}`;
  return {
    marketPort,
    args: [
      'certify',
      '--market-url',
      marketUrl,
      '--mode',
      mode,
      '--sandbox-port',
      String(sandboxPort),
      ...extra,
    ],
  };
}

describe('bnpl-kit certify', () => {
  it('saves its keys on a first run, and certifies the market configured with them on the next', async () => {
    const config = file('{}', 'certify.json');
    const { marketPort, args } = await certifyArgs('basic', ['--save-config', config]);

    const first = await cli(...args, '--timeout', '1');
    expect(first.status).toBe(2);
    expect(first.stderr).toMatch(/Gave up after 1000 ms waiting for the market to answer/);
    const env = parseExports(first.stdout);
    expect(Object.keys(env)).toEqual([
      'MODE',
      'SERVICE_API_URL',
      'APP_ID',
      'APP_API_KEY',
      'SERVICE_PUBLIC_KEY',
      'PUBLIC_BASE_URL',
      'MARKET_API_TOKEN',
      'BNPL_CALLBACK_URL',
    ]);

    running = await serveMarket(configFromEnv(env, 'basic'), marketPort);
    const report = file('', 'report.json');
    const second = await cli(...args.slice(0, -2), '--config', config, '--report', report);
    expect(second.stderr).toContain('Running');
    expect(parseExports(second.stdout)).toEqual(env);
    expect(second.stdout).toMatch(/PASSED: \d+ checks, \d+ passed, 0 failed, 0 skipped/);
    expect(second.status).toBe(0);
    const written = JSON.parse(await readFile(report, 'utf8')) as {
      ok: boolean;
      mode: string;
      summary: { failed: number };
    };
    expect(written).toMatchObject({ ok: true, mode: 'basic', summary: { failed: 0 } });
  });

  it('fails a market that moves orders backwards, naming webhook.out-of-order in the JUnit report', async () => {
    const { marketPort, args } = await certifyArgs('basic', [
      '--only',
      'webhook.',
      '--market-token',
      'mkt_test_token',
    ]);
    const config = file('{}', 'certify.json');
    const report = file('', 'report.xml');
    const printed = await cli(...args, '--save-config', config, '--timeout', '1');
    const env = parseExports(printed.stdout);
    const testMarket = createTestMarket(configFromEnv(env, 'basic'));
    running = await serveMarket(
      configFromEnv(env, 'basic'),
      marketPort,
      movesOrdersBackwards(testMarket.market, testMarket.store, env.SERVICE_PUBLIC_KEY!),
    );
    const run = await cli(...args, '--config', config, '--report', report);
    expect(run.status).toBe(1);
    expect(run.stdout).toMatch(
      /✗ webhook\.out-of-order[\s\S]*Expected: the market to report status CANCELED/,
    );
    expect(run.stdout).toContain('FAILED: ');
    const xml = await readFile(report, 'utf8');
    expect(xml).toMatch(
      /<testcase [^>]*name="webhook\.out-of-order: [^"]*"[^>]*>\s*<failure message="Expected: /,
    );
    expect(xml).toMatch(/<testsuites [^>]*failures="1"/);
  });

  it('refuses a report file of an unknown kind before starting anything (exit 2)', async () => {
    const { args } = await certifyArgs('basic', ['--report', 'report.html']);
    const run = await cli(...args);
    expect(run).toMatchObject({ status: 2, stdout: '' });
    expect(run.stderr).toContain('use a .xml (JUnit), .json or .txt file');
  });

  it('needs --mode basic|data-sharing and an http(s) --market-url (exit 2)', async () => {
    expect((await cli('certify', '--market-url', 'http://127.0.0.1:9')).status).toBe(2);
    expect((await cli('certify', '--market-url', 'http://127.0.0.1:9', '--mode', 'full')).status).toBe(2);
    expect((await cli('certify', '--market-url', 'ftp://x', '--mode', 'basic')).status).toBe(2);
  });
});

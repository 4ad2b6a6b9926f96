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
      // The markets here keep their state in memory: they lack restarts on purpose.
      '--lacks',
      'restart',
      ...extra,
    ],
  };
}

/** A first run for the checks in `only` that saves the keys and prints them (no market answers yet). */
async function firstRun(mode: string, only: string[]) {
  const { marketPort, args } = await certifyArgs(mode, [
    '--only',
    ...only,
    '--market-token',
    'mkt_test_token',
  ]);
  const config = file('{}', 'certify.json');
  const env = parseExports((await cli(...args, '--save-config', config, '--timeout', '1')).stdout);
  return { marketPort, args, config, env };
}

describe('bnpl-kit certify', () => {
  it('saves its keys on a first run, and certifies the market configured with them on the next', async () => {
    const config = file('{}', 'certify.json');
    // What the saved keys must get right, each printed value used by one check: the service's
    // orders (APP_ID, APP_API_KEY), its signed webhooks at PUBLIC_BASE_URL (SERVICE_PUBLIC_KEY), the
    // market's token and the redirect to BNPL_CALLBACK_URL. Every basic check through this command
    // runs in scripts/test/readme-commands.test.ts (the README's certify line, a reference server),
    // every data-sharing check in certify-e2e.test.ts, and every check against this test market in
    // contract-tests/test/suite.test.ts: a full run here would prove none of it again.
    const { marketPort, args } = await certifyArgs('basic', [
      '--only',
      'orders.create.valid',
      'orders.status.follows-service',
      'redirect.known-order',
      'webhook.service-deliveries-acknowledged',
      '--save-config',
      config,
    ]);

    const first = await cli(...args, '--timeout', '1');
    expect(first.status).toBe(2);
    expect(first.stderr).toMatch(/Gave up after 1000 ms waiting for the market to answer/);
    const env = parseExports(first.stdout);
    expect(Object.keys(env)).toEqual([
      'MODE',
      'BNPL_INTEGRATION_MODE',
      'PORT',
      'SERVICE_API_URL',
      'APP_ID',
      'APP_API_KEY',
      'SERVICE_PUBLIC_KEY',
      'PUBLIC_BASE_URL',
      'MARKET_API_TOKEN',
      'BNPL_CALLBACK_URL',
    ]);
    expect(env).toMatchObject({
      BNPL_INTEGRATION_MODE: 'basic',
      PORT: String(marketPort),
      BNPL_CALLBACK_URL: `http://127.0.0.1:${marketPort}/bnpl/complete`,
    });

    running = await serveMarket(configFromEnv(env, 'basic'), marketPort);
    const report = file('', 'report.json');
    const second = await cli(...args.slice(0, -2), '--config', config, '--report', report);
    expect(second.stderr).toContain('Running');
    expect(parseExports(second.stdout)).toEqual(env);
    // Each check named ran (a name that matched none would shrink the count).
    expect(second.stdout).toMatch(/PASSED: 4 checks, 4 passed, 0 failed, 0 skipped/);
    expect(second.status).toBe(0);
    const written = JSON.parse(await readFile(report, 'utf8')) as {
      ok: boolean;
      mode: string;
      summary: { failed: number };
    };
    expect(written).toMatchObject({ ok: true, mode: 'basic', summary: { failed: 0 } });
  });

  it('fails a market that moves orders backwards, naming webhook.out-of-order in the JUnit report', async () => {
    // Only the check the defect breaks: the other webhook checks pass on it and prove nothing here.
    const { marketPort, args, config, env } = await firstRun('data-sharing', ['webhook.out-of-order']);
    const report = file('', 'report.xml');
    const testMarket = createTestMarket(configFromEnv(env, 'data-sharing'));
    running = await serveMarket(
      configFromEnv(env, 'data-sharing'),
      marketPort,
      movesOrdersBackwards(testMarket.market, testMarket.store, env.SERVICE_PUBLIC_KEY!),
    );
    const run = await cli(...args, '--config', config, '--report', report);
    expect(run.status).toBe(1);
    expect(run.stdout).toMatch(
      /✗ webhook\.out-of-order[\s\S]*Expected: 409 problem\+json for (cancel|disburse) of a PAID order/,
    );
    // Progress, one line per check as it runs.
    expect(run.stderr).toMatch(/\[1\/1\] webhook\.out-of-order[\s\S]*FAIL webhook\.out-of-order/);
    expect(run.stdout).toContain('FAILED: ');
    const xml = await readFile(report, 'utf8');
    expect(xml).toMatch(
      /<testcase [^>]*name="webhook\.out-of-order: [^"]*"[^>]*>\s*<failure message="Expected: /,
    );
    expect(xml).toMatch(/<testsuites [^>]*failures="1"/);
  });

  it('fails a run with a skipped check (INCOMPLETE, naming what to expose) unless --allow-skips', async () => {
    const { marketPort, args, config, env } = await firstRun('data-sharing', ['push-claims.tokens-verify']);
    const { market } = createTestMarket(configFromEnv(env, 'data-sharing'));
    // A demo-user answer without session tokens: the push-claims checks cannot act as a user.
    const withoutSessions: typeof market = {
      ...market,
      async handle(request, options) {
        if (new URL(request.url).pathname === '/v1/demo-user') return Response.json({ id: 'user-an' });
        return market.handle(request, options);
      },
    };
    running = await serveMarket(configFromEnv(env, 'data-sharing'), marketPort, withoutSessions);
    const strict = await cli(...args, '--config', config);
    expect(strict.status).toBe(1);
    expect(strict.stdout).toMatch(/INCOMPLETE: 1 check\(s\) did not run/);
    expect(strict.stdout).toMatch(/the market must expose:\n {2}- needs 1 user\(s\) with a session_token/);
    const allowed = await cli(...args, '--config', config, '--allow-skips');
    expect(allowed.stdout).toMatch(/PASSED \(skips allowed\): 1 checks, 0 passed, 0 failed, 1 skipped/);
    expect(allowed.status).toBe(0);
  });

  it('stops at --deadline: checks not started by then are not run, and the run fails', async () => {
    const { marketPort, args, config, env } = await firstRun('basic', [
      'service-failure.create.timeout',
      'service-failure.status.error',
    ]);
    running = await serveMarket(configFromEnv(env, 'basic'), marketPort);
    // The first check waits out the market's own service timeout, longer than the whole run may take.
    const run = await cli(...args, '--config', config, '--deadline', '1');
    expect(run.status).toBe(1);
    expect(run.stdout).toMatch(/✗ service-failure\.create\.timeout[\s\S]*did not finish within \d+ ms/);
    expect(run.stdout).toMatch(
      /○ service-failure\.status\.error[\s\S]*not run \(the --deadline of the run passed\)/,
    );
  });

  it('refuses a report file of an unknown kind before starting anything (exit 2)', async () => {
    const { args } = await certifyArgs('basic', ['--report', 'report.pdf']);
    const run = await cli(...args);
    expect(run).toMatchObject({ status: 2, stdout: '' });
    expect(run.stderr).toContain(
      'use a .html (a page to open in a browser), .xml (JUnit), .json or .txt file',
    );
  });

  it('needs --mode basic|data-sharing and an http(s) --market-url (exit 2)', async () => {
    expect((await cli('certify', '--market-url', 'http://127.0.0.1:9')).status).toBe(2);
    expect((await cli('certify', '--market-url', 'http://127.0.0.1:9', '--mode', 'full')).status).toBe(2);
    expect((await cli('certify', '--market-url', 'ftp://x', '--mode', 'basic')).status).toBe(2);
  });
});

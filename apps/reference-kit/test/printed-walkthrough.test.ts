/**
 * The walkthrough exactly as a server prints it (URL and token filled in) runs in bash, as a new
 * user pasting it would: every step succeeds and the output shows the webhooks and statuses.
 */

import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { promisify } from 'node:util';
import type { IntegrationMode } from '@bnpl-kit/core';
import { startSandboxServer } from '@bnpl-kit/sandbox';
import { freePort } from '@bnpl-kit/test-ports';
import { describe, expect, it } from 'vitest';
import { sandboxBanner, walkthroughScript } from '../src/index.js';
import { generateSigningKey } from '../src/keys.js';
import { removeDir, startTestServer } from './helpers/servers.js';

const run = promisify(execFile);

const EXPECTED: Record<IntegrationMode, RegExp[]> = {
  basic: [
    /"status":"ready"/,
    /stored status of ord_\S+: APPROVED/,
    /stored status of ord_\S+: DISBURSING/,
    /stored status of ord_\S+: PAID/,
    /BNPL_ORDER_STATUS_UPDATED PAID -> 200 \{"received":true\}/,
    /"status":"PAID"/,
  ],
  'data-sharing': [
    /loyalty-gold-pay-in-6 rank 1/,
    /\{"credify_id":"crf_\S+"\}/,
    /stored status of ord_\S+: PAID/,
    /"idempotency_key":"disburse:ord_/,
    /"status":"CANCELED"/,
  ],
};

/** The script part of a start banner: from after the "Walkthrough:" line to the end. */
function scriptOf(banner: string): string {
  return banner.slice(banner.indexOf('\n\n', banner.indexOf('Walkthrough: paste into bash')) + 2);
}

describe('the printed walkthrough, against a standalone sandbox (bnpl-kit sandbox)', () => {
  const script = walkthroughScript({
    mode: 'data-sharing',
    baseUrl: 'http://127.0.0.1:3001',
    marketApiToken: undefined,
    apiKey: undefined,
    serviceUrl: 'http://127.0.0.1:4010',
    keyFile: '/data/keys.json',
  });

  it('runs in a fresh shell (no exports) against a sandbox started with nothing but the webhook URL', async () => {
    // As `bnpl-kit sandbox --webhook-url …` starts it: one organisation with a generated key and
    // signing key, and no offer filter, basic profile or loyalty offer: step 0 sets those.
    const port = await freePort();
    const signing = generateSigningKey();
    const sandbox = await startSandboxServer({
      port: 0,
      organizations: [
        {
          id: 'sandbox-org',
          apiKeys: ['sk_sandbox_printed_walkthrough_key'],
          webhookUrls: [`http://127.0.0.1:${port}/v1/webhook`],
          signingKey: signing.pkcs8,
        },
      ],
    });
    const server = await startTestServer({
      mode: 'data-sharing',
      env: {
        PORT: String(port),
        SERVICE_API_URL: sandbox.url,
        APP_ID: 'sandbox-org',
        APP_API_KEY: 'sk_sandbox_printed_walkthrough_key',
        SERVICE_PUBLIC_KEY: await sandbox.sandbox.publicKey(),
        APP_SIGNING_KEY: signing.pkcs8,
        PUBLIC_BASE_URL: `http://127.0.0.1:${port}`,
      },
    });
    try {
      const script = scriptOf(sandboxBanner(server, 'data-sharing-server'));
      // Both of An's offers print rank 1: the script says why before it prints them.
      expect(script).toContain('an offer without a condition ranks 1 for');
      // No demo shop next to an external sandbox (README: the walkthrough is the way in then).
      expect(server.shopUrl).toBeUndefined();
      expect((await fetch(`${server.publicBaseUrl}/`)).status).toBe(404);
      const readme = readFileSync(new URL('../../../README.md', import.meta.url), 'utf8').replace(
        /\s+/g,
        ' ',
      );
      expect(readme).toContain(
        'With `SERVICE_API_URL` set (an external sandbox) there is no shop: `/` answers 404',
      );
      expect(script).not.toContain('keys.json');
      expect(script).not.toContain('sk_sandbox_printed_walkthrough_key');
      const { APP_API_KEY: _, MARKET_API_TOKEN: __, ...env } = process.env;
      const { stdout } = await run('bash', ['-e', '-o', 'pipefail', '-c', script], {
        env,
        timeout: 200_000,
      });
      for (const pattern of EXPECTED['data-sharing']) expect(stdout).toMatch(pattern);
      expect(stdout).toMatch(/^credify_id: crf_\S+$/m);
      expect(stdout).not.toMatch(/undefined/);
      expect(stdout.match(/loyalty-gold-pay-in-6 rank/g)).toHaveLength(1);
      expect(stdout.match(/"idempotency_key":"disburse:/g)).toHaveLength(1);
      const stored = await (await fetch(`${server.publicBaseUrl}/v1/demo-user`)).json();
      expect(stored.users[0].credify_id).toMatch(/^crf_/);
    } finally {
      await server.close();
      await sandbox.close();
      await removeDir(server.dataDir);
    }
  });

  it('takes the API key the sandbox printed, never the key file’s (the embedded sandbox’s)', async () => {
    const line = script.split('\n').find((l) => l.startsWith('API_KEY='))!;
    expect(line).not.toContain('keys.json');
    const unset = await run('bash', ['-c', `unset APP_API_KEY; ${line}`]).catch((e: { stderr: string }) => e);
    expect((unset as { stderr: string }).stderr).toContain(
      'export APP_API_KEY as bnpl-kit sandbox printed it',
    );
  });

  it('stops with the service’s answer instead of going on with "undefined"', async () => {
    const helpers = script.slice(
      script.indexOf('json() {'),
      script.indexOf('\n', script.indexOf('json() {')),
    );
    const failed = await run('bash', [
      '-e',
      '-o',
      'pipefail',
      '-c',
      `${helpers}\nID=$(echo '{"success":false,"errors":[{"code":"UNAUTHENTICATED"}]}' | json data.credify_id)\necho "id: $ID"`,
    ]).catch((e: { stdout: string; stderr: string }) => e);
    expect((failed as { stdout: string }).stdout).not.toContain('undefined');
    expect((failed as { stderr: string }).stderr).toContain('no data.credify_id in: {"success":false');
  });
});

describe('the printed walkthrough', () => {
  for (const mode of ['basic', 'data-sharing'] as const) {
    it(`runs in bash (${mode} mode)`, async () => {
      const server = await startTestServer({ mode });
      try {
        const script = walkthroughScript({
          mode,
          baseUrl: server.publicBaseUrl,
          marketApiToken: server.marketApiToken.reveal(),
          apiKey: server.keys!.appApiKey.reveal(),
        });
        // The child's deadline is the listen deadline of child-server.ts: a hang, never a slow machine
        // (60 s cut off the data-sharing walkthrough with both cores busy).
        const { stdout } = await run('bash', ['-e', '-o', 'pipefail', '-c', script], { timeout: 200_000 });
        for (const pattern of EXPECTED[mode]) expect(stdout).toMatch(pattern);
        if (mode === 'data-sharing') {
          // Bình misses the gold offer: exactly one availability answer lists it (An's).
          expect(stdout.match(/loyalty-gold-pay-in-6 rank/g)).toHaveLength(1);
          // "Exactly one disbursement" holds on every run, not only on a fresh sandbox.
          expect(stdout.match(/"idempotency_key":"disburse:/g)).toHaveLength(1);
          const again = await run('bash', ['-e', '-o', 'pipefail', '-c', script], { timeout: 200_000 });
          expect(again.stdout.match(/"idempotency_key":"disburse:/g)).toHaveLength(1);
        }
      } finally {
        await server.close();
        await removeDir(server.dataDir);
      }
    });
  }
});

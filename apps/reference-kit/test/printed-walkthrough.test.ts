/**
 * The walkthrough exactly as a server prints it (URL and token filled in) runs in bash, as a new
 * user pasting it would: every step succeeds and the output shows the webhooks and statuses.
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import type { IntegrationMode } from '@bnpl-kit/core';
import { describe, expect, it } from 'vitest';
import { walkthroughScript } from '../src/index.js';
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
        const { stdout } = await run('bash', ['-e', '-o', 'pipefail', '-c', script], { timeout: 60_000 });
        for (const pattern of EXPECTED[mode]) expect(stdout).toMatch(pattern);
        if (mode === 'data-sharing') {
          // Bình misses the gold offer: exactly one availability answer lists it (An's).
          expect(stdout.match(/loyalty-gold-pay-in-6 rank/g)).toHaveLength(1);
          // "Exactly one disbursement" holds on every run, not only on a fresh sandbox.
          expect(stdout.match(/"idempotency_key":"disburse:/g)).toHaveLength(1);
          const again = await run('bash', ['-e', '-o', 'pipefail', '-c', script], { timeout: 60_000 });
          expect(again.stdout.match(/"idempotency_key":"disburse:/g)).toHaveLength(1);
        }
      } finally {
        await server.close();
        await removeDir(server.dataDir);
      }
    });
  }
});

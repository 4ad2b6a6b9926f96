/**
 * The contract suite certifies the data-sharing reference server as it runs: over HTTP, with its
 * embedded sandbox (served under /sandbox-service) playing the service, and the demo users of
 * `GET /v1/demo-user` (session tokens, stored claims) as the signed-in users. Every check passes;
 * a skip would mean the server lacks a capability the suite can test, so it counts as a failure.
 */
import { createHttpSandbox, runContractSuite } from '@bnpl-kit/contract-tests';
import { describe, expect, it } from 'vitest';
import { BNPL_COMPLETE_PATH } from '../src/own-routes.js';
import { removeDir, startTestServer } from './helpers/servers.js';

// The basic-mode server is certified once, by the README's certify line: every basic check, through
// `bnpl-kit certify`, against the server `node scripts/start.mjs` starts (scripts/test/
// readme-commands.test.ts), a test that runs anyway. On Bun and Deno the data-sharing server is
// certified again, restarts included (tools/runtimes/test/reference-server.test.ts).
describe('contract suite', () => {
  it('certifies the data-sharing-mode server', async () => {
    const mode = 'data-sharing';
    const server = await startTestServer({ mode, framework: 'express' });
    try {
      const report = await runContractSuite({
        marketUrl: server.url,
        mode,
        marketToken: server.marketApiToken.reveal(),
        // Only a hang takes a minute: every package's suite shares two cores in CI (certify's
        // default is 10 s per request).
        requestTimeoutMs: 60_000,
        // This test runs the server on an in-memory store, so a restart would start it empty.
        lacks: ['restart'],
        bnplCallbackUrl: `${server.publicBaseUrl}${BNPL_COMPLETE_PATH}`,
        sandbox: createHttpSandbox({
          url: server.embedded!.serviceUrl,
          organizationId: server.appId,
          apiKey: server.keys!.appApiKey.reveal(),
          signingKey: server.keys!.sandboxSigningKey!.reveal(),
        }),
      });
      const notPassed = report.results.filter(
        (r) => r.status !== 'pass' && !(r.status === 'not-exercised' && r.lacks?.declared),
      );
      expect(notPassed.map((r) => `${r.id} [${r.status}]: ${r.message}`)).toEqual([]);
      expect(report.summary.passed).toBeGreaterThan(10);
    } finally {
      await server.close();
      await removeDir(server.dataDir);
    }
  });
});

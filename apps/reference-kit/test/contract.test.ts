/**
 * The contract suite certifies both reference servers as they run: over HTTP, with their embedded
 * sandbox (served under /sandbox-service) playing the service, and the demo users of
 * `GET /v1/demo-user` (session tokens, stored claims) as the signed-in users. Every check passes;
 * a skip would mean the server lacks a capability the suite can test, so it counts as a failure.
 */
import { createHttpSandbox, runContractSuite } from '@bnpl-kit/contract-tests';
import { describe, expect, it } from 'vitest';
import { BNPL_COMPLETE_PATH } from '../src/own-routes.js';
import { removeDir, startTestServer } from './helpers/servers.js';

describe('contract suite', () => {
  for (const mode of ['basic', 'data-sharing'] as const) {
    it(`certifies the ${mode}-mode server`, async () => {
      const server = await startTestServer({ mode, framework: mode === 'basic' ? 'koa' : 'express' });
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
  }
});

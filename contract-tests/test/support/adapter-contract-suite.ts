/**
 * The contract suite against one framework adapter in both modes (whole where no other run certifies
 * that mode on that adapter, `modeSmokeChecks` elsewhere: `wholeHere` below): a real
 * listening server, the service mocked with msw (the sandbox through `createSandboxHandlers`), one
 * `it` per check. Each adapter calls it from a file of its own (test/suite/<adapter>.test.ts here;
 * the Next.js example from apps/nextjs-example, whose test waits for its build), so adapters run in
 * parallel workers. A new check is one entry in src/checks.
 */

import { INTEGRATION_MODES, type IntegrationMode } from '@bnpl-kit/core';
import { type GeneratedKeyPair, generateKeyPair } from '@bnpl-kit/core/testing';
import { createSandbox, createSandboxHandlers, type Sandbox } from '@bnpl-kit/sandbox';
import { setupServer } from 'msw/node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AdapterEntry } from '../../src/adapter-server.js';
import { checksFor, modeSmokeChecks } from '../../src/index.js';
import { runCheck } from '../../src/runner.js';
import { createTestMarket } from '../../src/testing.js';
import { startTarget, type Target } from '../fixtures/targets.js';

const SERVICE_URL = 'https://sandbox.contract-suite.test';

/**
 * The adapter certified whole in both modes here. Why only one: an adapter only hands requests to
 * the market and never sees the mode, and data-sharing's checks are a superset of basic's but
 * basic's own (which the smoke set has), so a second adapter's whole basic run certified the same
 * market logic again (measured alone: hono whole in both modes 10.3 CPU-seconds, koa with basic's
 * smoke set 7.4). Hono: the fetch-style handler as the runtimes serve it, with the least
 * translation in front of the market.
 */
export const WHOLE_IN_BOTH_MODES = 'hono';

/**
 * Adapters whose data-sharing mode is certified whole outside this package, so they run
 * `modeSmokeChecks` in both modes here: the package README's complete server, installed from the
 * packed packages in an outside project, passes that README's `--mode data-sharing` certify line
 * as written (tools/readme-examples/test/adapter-readmes.test.ts; the NestJS README's server is on
 * the Express platform). That run puts every check through the same adapter code (built, on PGlite,
 * restart included), so a second whole run here certified nothing else and cost ~7 CPU-seconds each
 * (issue 36). That test holds each entry to its README. Adapters no README certifies
 * (nestjs-fastify, the Next.js example's route) stay whole here.
 */
export const WHOLE_IN_ITS_README: Readonly<Record<string, string>> = {
  express: 'packages/express/README.md',
  koa: 'packages/koa/README.md',
  fastify: 'packages/fastify/README.md',
  'nestjs-express': 'packages/nestjs/README.md',
};

/** Whether `adapter` runs `mode` whole here (else its smoke set): see the two lists above. */
export function wholeHere(adapter: string, mode: IntegrationMode): boolean {
  if (adapter === WHOLE_IN_BOTH_MODES) return true;
  return mode === 'data-sharing' && !(adapter in WHOLE_IN_ITS_README);
}

export function describeAdapterSuite(adapter: AdapterEntry): void {
  describe(`the contract suite on ${adapter.name}`, () => {
    let serviceKey: GeneratedKeyPair;
    let sandbox: Sandbox;
    let mswServer: ReturnType<typeof setupServer>;

    beforeAll(async () => {
      serviceKey = await generateKeyPair();
      sandbox = createSandbox({ signingKey: serviceKey.privateKeyPem });
      mswServer = setupServer(...createSandboxHandlers(sandbox, { baseUrl: SERVICE_URL }));
      mswServer.listen({ onUnhandledRequest: 'bypass' });
    });
    afterAll(() => {
      mswServer?.close();
      sandbox?.close();
    });

    for (const mode of INTEGRATION_MODES) {
      describe(`${adapter.name} × ${mode}`, () => {
        let target: Target;

        beforeAll(async () => {
          target = await startTarget({
            mode,
            organizationId: `org-${adapter.name}-${mode}`,
            serviceUrl: SERVICE_URL,
            serviceKey,
            listen: (shell) => adapter.start(shell),
            build: (config) => createTestMarket(config).market,
          });
          sandbox.organizations.upsert(target.organization);
        });
        afterAll(() => target?.listening.close());

        const checks = wholeHere(adapter.name, mode)
          ? checksFor(mode)
          : checksFor(mode, modeSmokeChecks(mode));
        for (const check of checks) {
          it(check.id, async () => {
            // The test market leaves disbursement to the market's systems (no handleWebhook hook):
            // it declares so, and that one check is "not exercised", declared; every other passes.
            const result = await runCheck(check, { ...target.suite, lacks: ['disburse-on-readiness'] });
            // A skip counts as a failure here: the test market offers every other capability.
            if (result.status === 'not-exercised') {
              expect(result.lacks).toEqual({ capability: 'disburse-on-readiness', declared: true });
              return;
            }
            expect({ status: result.status, message: result.message }).toEqual({
              status: 'pass',
              message: undefined,
            });
          });
        }
      });
    }
  });
}

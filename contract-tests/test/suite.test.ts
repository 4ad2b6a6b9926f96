/**
 * The contract suite against every adapter × mode: real listening servers, the service mocked with
 * msw (the sandbox through `createSandboxHandlers`), one `it` per check. A new adapter is one entry
 * in src/adapters.ts; a new check is one entry in src/checks.
 */

import { INTEGRATION_MODES } from '@bnpl-kit/core';
import { generateKeyPair } from '@bnpl-kit/core/testing';
import { createSandbox, createSandboxHandlers } from '@bnpl-kit/sandbox';
import { setupServer } from 'msw/node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adapters } from '../src/adapters.js';
import { checksFor } from '../src/index.js';
import { runCheck } from '../src/runner.js';
import { createTestMarket } from '../src/testing.js';
import { startTarget, type Target } from './fixtures/targets.js';

const SERVICE_URL = 'https://sandbox.contract-suite.test';
const serviceKey = await generateKeyPair();
const sandbox = createSandbox({ signingKey: serviceKey.privateKeyPem });
const mswServer = setupServer(...createSandboxHandlers(sandbox, { baseUrl: SERVICE_URL }));

beforeAll(() => mswServer.listen({ onUnhandledRequest: 'bypass' }));
afterAll(() => {
  mswServer.close();
  sandbox.close();
});

for (const adapter of adapters) {
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
      afterAll(() => target.listening.close());

      for (const check of checksFor(mode)) {
        it(check.id, async () => {
          const result = await runCheck(check, target.suite);
          // A skip counts as a failure here: the test market offers every capability.
          expect({ status: result.status, message: result.message }).toEqual({
            status: 'pass',
            message: undefined,
          });
        });
      }
    });
  }
}

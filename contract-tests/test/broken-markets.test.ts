/**
 * The suite over real HTTP, the way certify runs it (`startCertification`: a standalone sandbox
 * registered for the market, the environment the market starts with), against a market served
 * through core's Node bridge. A correct market passes every check in both modes; each deliberately
 * broken market fails, with the check that names its defect among the failures.
 */
import type { IntegrationMode, Market } from '@bnpl-kit/core';
import { createMemoryStore } from '@bnpl-kit/core/testing';
import { describe, expect, it } from 'vitest';
import type { ContractReport, MarketCapability } from '../src/index.js';
import {
  brokenMarkets,
  configFromEnv,
  createTestMarket,
  swappableMarket,
  type TestMarketConfig,
} from '../src/testing.js';
import { certifyServed, expectAllPassed, itCatchesEach } from './fixtures/certify.js';
import { serveOnNode } from './fixtures/targets.js';

async function certify(
  mode: IntegrationMode,
  build: (config: TestMarketConfig, secrets: { serviceSigningKey: string }) => Market,
  only?: readonly string[],
  lacks: readonly MarketCapability[] = [],
): Promise<ContractReport> {
  const shell = swappableMarket(mode);
  let restart: (() => void) | undefined;
  return certifyServed(
    mode,
    await serveOnNode(shell),
    (run, heldCalls) => {
      const secrets = { serviceSigningKey: String(run.savedConfig().signing_key) };
      // A restart is a new market on the same store, as a process restarted on its database.
      const config = { ...configFromEnv(run.env, mode), store: createMemoryStore(), heldCalls };
      restart = () => shell.use(build(config, secrets));
      restart();
    },
    only,
    { restartMarket: async () => restart?.(), lacks },
  );
}

describe('a correct market', () => {
  // The test market leaves disbursement to the market's systems (no handleWebhook hook), and says so.
  const lacks: readonly MarketCapability[] = ['disburse-on-readiness'];
  for (const mode of ['basic', 'data-sharing'] as const) {
    it(`passes every ${mode} check over real HTTP`, async () => {
      const market = (config: TestMarketConfig) => createTestMarket(config).market;
      expectAllPassed(await certify(mode, market, undefined, lacks), mode, lacks);
    });
  }
});

describe('a broken market', () => {
  itCatchesEach(
    brokenMarkets,
    // Only the checks that must catch the defect (and orders.create.valid, which they build on).
    (broken) => certify('data-sharing', broken.build, ['orders.create.valid', ...broken.caughtBy]),
    (broken, report) => {
      const failure = report.results.find((r) => r.id === broken.caughtBy[0]);
      expect(failure?.message).toMatch(/^Expected: .+\nGot: .+\nBroken: +(WIRE|spec)/s);
    },
  );
});

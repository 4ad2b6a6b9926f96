/**
 * The suite over real HTTP, the way certify runs it (`startCertification`: a standalone sandbox
 * registered for the market, the environment the market starts with), against a market served
 * through core's Node bridge. A correct market passes every check in both modes; each deliberately
 * broken market fails, with the check that names its defect among the failures.
 */
import type { IntegrationMode, Market } from '@bnpl-kit/core';
import { describe, expect, it } from 'vitest';
import {
  type ContractReport,
  checksFor,
  formatTextReport,
  runContractSuite,
  startCertification,
} from '../src/index.js';
import {
  brokenMarkets,
  configFromEnv,
  createTestMarket,
  swappableMarket,
  type TestMarketConfig,
} from '../src/testing.js';
import { serveOnNode } from './fixtures/targets.js';

/** A whole run: generous, because CI machines are shared (a run takes a few seconds alone). */
const FULL_RUN_MS = 90_000;

async function certify(
  mode: IntegrationMode,
  build: (config: TestMarketConfig, secrets: { serviceSigningKey: string }) => Market,
  only?: readonly string[],
): Promise<ContractReport> {
  const shell = swappableMarket(mode);
  const listening = await serveOnNode(shell);
  const run = await startCertification({ marketUrl: listening.url, mode, sandboxPort: 0 });
  try {
    const secrets = { serviceSigningKey: String(run.savedConfig().signing_key) };
    shell.use(build(configFromEnv(run.env, mode), secrets));
    return await runContractSuite({ ...run.suiteOptions, ...(only && { only }) });
  } finally {
    await run.close();
    await listening.close();
  }
}

const failedIds = (report: ContractReport) =>
  report.results.filter((r) => r.status === 'fail').map((r) => r.id);

describe('a correct market', () => {
  for (const mode of ['basic', 'data-sharing'] as const) {
    it(
      `passes every ${mode} check over real HTTP`,
      async () => {
        const report = await certify(mode, (config) => createTestMarket(config).market);
        expect(report.ok, formatTextReport(report)).toBe(true);
        const total = checksFor(mode).length;
        expect(report.summary).toEqual({ total, passed: total, failed: 0, skipped: 0, notRun: 0 });
      },
      FULL_RUN_MS,
    );
  }
});

describe('a broken market', () => {
  for (const broken of brokenMarkets) {
    it(
      `that ${broken.name} fails ${broken.caughtBy.join(' and ')}`,
      async () => {
        // Only the checks that must catch the defect (and orders.create.valid, which they build on).
        const report = await certify('data-sharing', broken.build, [
          'orders.create.valid',
          ...broken.caughtBy,
        ]);
        expect(report.ok).toBe(false);
        expect(failedIds(report)).toEqual(expect.arrayContaining(broken.caughtBy));
        const failure = report.results.find((r) => r.id === broken.caughtBy[0]);
        expect(failure?.message).toMatch(/^Expected: .+\nGot: .+\nBroken: +(WIRE|spec)/s);
      },
      FULL_RUN_MS,
    );
  }
});

/**
 * Certify against a market the kit did not write (fixtures/conformance-market: node:http and
 * node:crypto only, built from the specification and WIRE.md): it passes in both modes, with the
 * kit's problem vocabulary and with its own, strictly (nothing skipped); each variant with one
 * deliberate defect fails on the check that names that defect.
 */
import type { IntegrationMode } from '@bnpl-kit/core';
import { describe, expect, it } from 'vitest';
import { startCertification } from '../src/certification.js';
import { type ContractReport, checksFor, formatTextReport, runContractSuite } from '../src/index.js';
import {
  createConformanceMarket,
  type Defect,
  serveConformanceMarket,
} from './fixtures/conformance-market/market.js';
import type { Vocabulary } from './fixtures/conformance-market/problems.js';
import { CONFORMANCE_VARIANTS } from './fixtures/conformance-market/variants.js';

async function certify(
  mode: IntegrationMode,
  options: { vocabulary?: Vocabulary; defects?: readonly Defect[]; only?: readonly string[] } = {},
): Promise<ContractReport> {
  const server = await serveConformanceMarket();
  const run = await startCertification({ marketUrl: server.url, mode, sandboxPort: 0 });
  try {
    server.use(
      createConformanceMarket({
        mode,
        env: run.env,
        serviceTimeoutMs: 1000,
        ...(options.vocabulary && { vocabulary: options.vocabulary }),
        ...(options.defects && { defects: options.defects }),
      }),
    );
    return await runContractSuite({ ...run.suiteOptions, ...(options.only && { only: options.only }) });
  } finally {
    await run.close();
    await server.close();
  }
}

/** A whole run: generous, because CI machines are shared (a run takes a few seconds alone). */
const FULL_RUN_MS = 90_000;

const idsWith = (report: ContractReport, status: string) =>
  report.results.filter((r) => r.status === status).map((r) => r.id);

describe('the conformance market (no @bnpl-kit code)', () => {
  for (const mode of ['basic', 'data-sharing'] as const) {
    for (const vocabulary of ['kit', 'own'] as const) {
      it(
        `passes every ${mode} check with the ${vocabulary} problem vocabulary, nothing skipped`,
        async () => {
          const report = await certify(mode, { vocabulary });
          expect(idsWith(report, 'fail'), formatTextReport(report)).toEqual([]);
          const total = checksFor(mode).length;
          expect(report.summary).toEqual({ total, passed: total, failed: 0, skipped: 0, notRun: 0 });
          expect(report.ok).toBe(true);
          const advice = report.results.flatMap((r) => r.advisories ?? []);
          if (vocabulary === 'own') expect(advice.join('\n')).toMatch(/kit vocabulary not used/);
          else expect(advice).toEqual([]);
        },
        FULL_RUN_MS,
      );
    }
  }
});

describe('a conformance market variant with one defect', () => {
  for (const variant of CONFORMANCE_VARIANTS) {
    it(
      `that ${variant.name} fails ${variant.caughtBy.join(' and ')}`,
      async () => {
        const report = await certify(variant.mode, {
          defects: [variant.defect],
          only: variant.only ?? variant.caughtBy,
        });
        expect(report.ok).toBe(false);
        const failing = variant.status === 'skip' ? idsWith(report, 'skip') : idsWith(report, 'fail');
        expect(failing, formatTextReport(report)).toEqual(expect.arrayContaining(variant.caughtBy));
        variant.also?.(report);
      },
      FULL_RUN_MS,
    );
  }
});

/**
 * Certify against a market the kit did not write (fixtures/conformance-market: node:http and
 * node:crypto only, built from the specification and docs/protocol.md): it passes in both modes, with the
 * kit's problem vocabulary and with its own, strictly (nothing skipped). Its variants, each with one
 * deliberate defect or a behaviour that is no defect, are conformance-market-variants.test.ts's
 * (two files so that neither is the package's longest: the four whole runs here take ~3.5 min).
 */
import { describe, expect, it } from 'vitest';
import { expectAllPassed } from './fixtures/certify.js';
import { certifyConformance as certify } from './fixtures/certify-conformance.js';

describe('the conformance market (no @bnpl-kit code)', () => {
  for (const mode of ['basic', 'data-sharing'] as const) {
    for (const vocabulary of ['kit', 'own'] as const) {
      it(`passes every ${mode} check with the ${vocabulary} problem vocabulary, nothing skipped`, async () => {
        const report = await certify(mode, { vocabulary });
        expectAllPassed(report, mode);
        const advice = report.results.flatMap((r) => r.advisories ?? []);
        if (vocabulary === 'own') expect(advice.join('\n')).toMatch(/kit vocabulary not used/);
        else expect(advice).toEqual([]);
      });
    }
  }
});

/**
 * Certify against a market the kit did not write (fixtures/conformance-market: node:http and
 * node:crypto only, built from the specification and docs/protocol.md): it passes in one mode, with
 * the kit's problem vocabulary and with its own, strictly (nothing skipped). One file per mode
 * (conformance-market.<mode>.test.ts), so that the two modes' runs (~1.5 min each alone, twice that
 * with every package's suite running) go side by side; its variants are
 * conformance-market-variants.test.ts's.
 */
import type { IntegrationMode } from '@bnpl-kit/core';
import { describe, expect, it } from 'vitest';
import { expectAllPassed } from '../fixtures/certify.js';
import { certifyConformance } from '../fixtures/certify-conformance.js';

export function describeConformanceMarket(mode: IntegrationMode): void {
  describe(`the conformance market (no @bnpl-kit code), ${mode} mode`, () => {
    for (const vocabulary of ['kit', 'own'] as const) {
      it(`passes every ${mode} check with the ${vocabulary} problem vocabulary, nothing skipped`, async () => {
        const report = await certifyConformance(mode, { vocabulary });
        expectAllPassed(report, mode);
        const advice = report.results.flatMap((r) => r.advisories ?? []);
        if (vocabulary === 'own') expect(advice.join('\n')).toMatch(/kit vocabulary not used/);
        else expect(advice).toEqual([]);
      });
    }
  });
}

/**
 * The test suite of `pnpm certify:mutation`: certify against the conformance market, strictly, in
 * the modes and with the checks MUTATION_MODES / MUTATION_ONLY name (default: both modes, every
 * check). Stryker mutates the conformance market's source; a mutant certify still passes survives.
 * The first check that does not pass ends the run (it throws from `onResult`): one is enough to kill
 * the mutant, and the rest of the suite would only cost time.
 */
import type { IntegrationMode } from '@bnpl-kit/core';
import { expect, it } from 'vitest';
import { certifyServed } from '../test/fixtures/certify.js';
import {
  createConformanceMarket,
  createConformanceState,
  serveConformanceMarket,
} from '../test/fixtures/conformance-market/market.js';

const modes = (process.env.MUTATION_MODES ?? 'basic,data-sharing').split(',') as IntegrationMode[];
const only = process.env.MUTATION_ONLY?.split(',').filter(Boolean);

for (const mode of modes) {
  it(`certify passes the conformance market (${mode})`, async () => {
    const server = await serveConformanceMarket();
    const state = createConformanceState();
    let start: (() => void) | undefined;
    const report = await certifyServed(
      mode,
      server,
      (run, heldCalls) => {
        start = () =>
          server.use(
            createConformanceMarket({ mode, env: run.env, serviceTimeoutMs: 1000, heldCalls, state }),
          );
        start();
      },
      only,
      {
        restartMarket: async () => start?.(),
        onResult: (result) => {
          if (result.status !== 'pass')
            throw new Error(`${result.id}: ${result.status}: ${result.message ?? ''}`);
        },
      },
    );
    expect(report.results.filter((r) => r.status !== 'pass').map((r) => r.id)).toEqual([]);
  });
}

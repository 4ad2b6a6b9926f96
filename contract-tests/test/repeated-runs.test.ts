/**
 * A market keeps its orders between certifications: the READMEs certify basic mode, then
 * data-sharing mode, against one server and one database. Every order a check creates must be new
 * to that market, or the market rightly answers 200 with the order it already holds (R-EP-01).
 */
import { createMemoryStore } from '@bnpl-kit/core/testing';
import { expect, it } from 'vitest';
import { formatTextReport } from '../src/index.js';
import { configFromEnv, createTestMarket, swappableMarket } from '../src/testing.js';
import { certifyServed } from './fixtures/certify.js';
import { serveOnNode } from './fixtures/targets.js';

it('creates only new orders: a second run against the same store passes the create domain checks again', async () => {
  const store = createMemoryStore();
  for (const mode of ['basic', 'data-sharing'] as const) {
    const shell = swappableMarket(mode);
    const report = await certifyServed(
      mode,
      await serveOnNode(shell),
      (run, heldCalls) =>
        shell.use(createTestMarket({ ...configFromEnv(run.env, mode), store, heldCalls }).market),
      ['domain.create.'],
    );
    expect(
      report.results.filter((r) => r.status !== 'pass').map((r) => r.id),
      formatTextReport(report),
    ).toEqual([]);
    expect(report.summary.total).toBeGreaterThan(5);
  }
});

/**
 * A data-sharing market may disburse a ready order by itself at any moment (R-STATE-06: a durable
 * worker, reconciliation): the checks that drive an order through readiness to PAID must pass
 * against a correct market whose disbursement lands at the worst moment, between the check reading
 * the service's order and its next step. Here the market's "worker" (its own POST
 * /orders/:id/disburse, as its systems would call it) runs right after every read that shows the
 * order DISBURSING, and right before the provider presses "paid": the interleavings that made
 * `webhook.out-of-order` fail with "paid answered 409 … in status PAID" on a README server.
 */
import type { IntegrationMode } from '@bnpl-kit/core';
import { describe, expect, it } from 'vitest';
import { startCertification } from '../src/certification.js';
import { type ContractSandbox, formatTextReport, runContractSuite } from '../src/index.js';
import { configFromEnv, createTestMarket, swappableMarket } from '../src/testing.js';
import { LOADED_REQUEST_TIMEOUT_MS } from './fixtures/loaded-machine.js';
import { serveOnNode } from './fixtures/targets.js';

/**
 * The sandbox, with the market's own disbursement run where a check cannot foresee it: right after
 * the `atRead`-th read that shows the order DISBURSING, else right before the provider's "paid".
 */
function withRacingDisbursement(
  sandbox: ContractSandbox,
  disburse: (orderId: string) => Promise<void>,
  atRead: number,
): { sandbox: ContractSandbox; raced: Set<string> } {
  const raced = new Set<string>();
  const reads = new Map<string, number>();
  const race = async (orderId: string) => {
    if (raced.has(orderId)) return;
    raced.add(orderId);
    await disburse(orderId);
  };
  return {
    raced,
    sandbox: {
      ...sandbox,
      async order(id) {
        const seen = await sandbox.order(id);
        // What the check read is already out of date when it acts on it.
        if (seen?.status !== 'DISBURSING') return seen;
        const count = (reads.get(id) ?? 0) + 1;
        reads.set(id, count);
        if (count === atRead) await race(id);
        return seen;
      },
      async paid(id) {
        if ((await sandbox.order(id))?.status === 'DISBURSING') await race(id);
        await sandbox.paid(id);
      },
    },
  };
}

const CHECKS = ['webhook.out-of-order', 'webhook.service-deliveries-acknowledged'];

describe('checks that drive an order to PAID, against a market that disburses by itself', () => {
  it.each([1, 2])(
    'pass when the disbursement lands right after their read number %i of the DISBURSING order, or before "paid"',
    async (atRead) => {
      const mode: IntegrationMode = 'data-sharing';
      const shell = swappableMarket(mode);
      const listening = await serveOnNode(shell);
      const run = await startCertification({ marketUrl: listening.url, mode, sandboxPort: 0 });
      try {
        shell.use(createTestMarket(configFromEnv(run.env, mode)).market);
        const { sandbox, raced } = withRacingDisbursement(
          run.suiteOptions.sandbox,
          async (orderId) => {
            const answer = await fetch(`${listening.url}/v1/orders/${encodeURIComponent(orderId)}/disburse`, {
              method: 'POST',
              headers: { authorization: `Bearer ${run.suiteOptions.marketToken}` },
            });
            expect(answer.status, await answer.text()).toBe(202);
          },
          atRead,
        );
        const report = await runContractSuite({
          ...run.suiteOptions,
          sandbox,
          requestTimeoutMs: LOADED_REQUEST_TIMEOUT_MS,
          only: ['orders.create.valid', ...CHECKS],
        });
        expect(
          report.results.filter((r) => r.status !== 'pass'),
          formatTextReport(report),
        ).toEqual([]);
        expect(report.results.map((r) => r.id)).toEqual(expect.arrayContaining(CHECKS));
        // Both checks met the race (one order each), so the passes above are about it.
        expect(raced.size).toBe(CHECKS.length);
      } finally {
        await run.close();
        await listening.close();
      }
    },
  );
});

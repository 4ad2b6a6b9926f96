/**
 * Checks that build on "the market processed the service's APPROVED event" (a repeat is a
 * duplicate, it survives a restart) make sure it did before judging. A market that was busy when
 * the service first delivered (503, nothing processed; the service retries 5 s later) and keeps
 * what it processed passes them; one that loses what it processed on a restart still fails. Before,
 * `restart.state-survives` restarted such a market straight after the refused attempt and then
 * called the event's first processing "lost on restart" (seen as a CI failure under load).
 */
import type { Market } from '@bnpl-kit/core';
import { createMemoryStore } from '@bnpl-kit/core/testing';
import { describe, expect, it } from 'vitest';
import type { ContractReport } from '../src/index.js';
import { isWebhook } from '../src/testing/broken-markets/webhook-request.js';
import { configFromEnv, createTestMarket, swappableMarket, type TestMarketConfig } from '../src/testing.js';
import { certifyServed } from './fixtures/certify.js';
import { serveOnNode } from './fixtures/targets.js';

const BUILT_ON_APPROVAL = ['restart.state-survives', 'webhook.duplicate-event-id', 'webhook.resigned-retry'];

/** Answers each order's first APPROVED webhook with 503 without processing it, as a busy server would. */
function busyOnFirstApproval(market: Market, refused: Set<string>): Market {
  return {
    ...market,
    ownsPath: (pathname) => market.ownsPath(pathname),
    async handle(request, options) {
      if (!isWebhook(market, request, options)) return market.handle(request, options);
      const event = JSON.parse(await request.clone().text()) as { order_id?: string; order_status?: string };
      if (event.order_status !== 'APPROVED' || !event.order_id || refused.has(event.order_id))
        return market.handle(request, options);
      refused.add(event.order_id);
      return Response.json(
        { type: 'about:blank', title: 'Busy', status: 503 },
        { status: 503, headers: { 'content-type': 'application/problem+json' } },
      );
    },
  };
}

/** A restart is a new market on the same store (`durable`), as a process on its database, or on an empty one. */
async function certifyBusyMarket(durable: boolean, refused: Set<string>): Promise<ContractReport> {
  const shell = swappableMarket('basic');
  let restart: (() => void) | undefined;
  return certifyServed(
    'basic',
    await serveOnNode(shell),
    (run, heldCalls) => {
      const config: TestMarketConfig = {
        ...configFromEnv(run.env, 'basic'),
        store: createMemoryStore(),
        heldCalls,
      };
      restart = () => {
        const store = durable ? config.store : createMemoryStore();
        shell.use(busyOnFirstApproval(createTestMarket({ ...config, store }).market, refused));
      };
      restart();
    },
    ['orders.create.valid', ...BUILT_ON_APPROVAL],
    { restartMarket: async () => restart?.() },
  );
}

const statuses = (report: ContractReport) =>
  Object.fromEntries(
    report.results.filter((r) => BUILT_ON_APPROVAL.includes(r.id)).map((r) => [r.id, r.status]),
  );

describe("checks built on the service's APPROVED event", () => {
  it('pass a durable market whose first answer to each APPROVED delivery was 503', async () => {
    const refused = new Set<string>();
    const report = await certifyBusyMarket(true, refused);
    expect(refused.size).toBe(BUILT_ON_APPROVAL.length);
    expect(statuses(report)).toEqual(Object.fromEntries(BUILT_ON_APPROVAL.map((id) => [id, 'pass'])));
  });

  it('still fail a market that loses what it processed on a restart, busy first or not', async () => {
    const refused = new Set<string>();
    const report = await certifyBusyMarket(false, refused);
    expect(refused.size).toBe(BUILT_ON_APPROVAL.length);
    expect(statuses(report)).toMatchObject({
      'restart.state-survives': 'fail',
      'webhook.duplicate-event-id': 'pass',
    });
  });
});

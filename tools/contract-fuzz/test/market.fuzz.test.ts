/**
 * The market documents (docs/openapi/market-*.json), fuzzed from the outside: for every operation,
 * requests generated from the document (not from the codecs) go to a listening reference market
 * (core's `createMarket` over Node, with certify's sandbox as the service), and every answer is judged
 * against the same document (src/judge.ts). Seeded and bounded by a number of runs: a failure prints
 * the seed that reproduces it (`FUZZ_SEED=<seed> pnpm test`).
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { startCertification } from '@bnpl-kit/contract-tests';
import { configFromEnv, createTestMarket, swappableMarket } from '@bnpl-kit/contract-tests/testing';
import type { IntegrationMode } from '@bnpl-kit/core';
import { createNodeListener } from '@bnpl-kit/core/node';
import { afterAll, describe, expect, it } from 'vitest';
import { documentNamed, fuzzer, operationsOf, summary, type Target, tally } from '../src/fuzz.js';

const closers: (() => Promise<void>)[] = [];
afterAll(async () => {
  console.log(summary());
  for (const close of closers.reverse()) await close();
});

async function startMarket(mode: IntegrationMode): Promise<Target> {
  const shell = swappableMarket(mode);
  const server = createServer(createNodeListener(shell));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const run = await startCertification({ marketUrl: origin, mode, sandboxPort: 0 });
  closers.push(
    () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
    () => run.close(),
  );
  const market = createTestMarket(configFromEnv(run.env, mode));
  shell.use(market.market);
  const credentials: Target['credentials'] = {
    marketSystems: { authorization: `Bearer ${run.env.MARKET_API_TOKEN}` },
    userSession: { authorization: `Bearer ${market.users[0]!.sessionToken}` },
  };
  if (mode === 'data-sharing') {
    const answer = await fetch(
      `${run.serviceUrl}/sandbox/organizations/${run.env.APP_ID}/offer-filter-token`,
      { method: 'POST' },
    );
    const { access_token } = (await answer.json()) as { access_token: string };
    credentials.serviceToken = { authorization: `Bearer ${access_token}` };
  }
  return { origin, credentials };
}

describe.each(['basic', 'data-sharing'] as const)('market-%s.json from the outside', (mode) => {
  const document = documentNamed(`market-${mode}.json`);
  const fuzz = fuzzer(document);
  let target: Target;

  it('starts a reference market', async () => {
    target = await startMarket(mode);
    expect(target.origin).toMatch(/^http:/);
  });

  it.each(operationsOf(document).map((op) => [op.operation.operationId, op] as const))(
    '%s: every answer is documented',
    (_name, op) => fuzz(mode, op, target),
  );

  it('creates orders from the valid bodies (the success path is judged too)', () => {
    const created = tally[`${mode} createOrder`]?.['valid/valid → 201'] ?? 0;
    expect(created).toBeGreaterThan(0);
  });
});

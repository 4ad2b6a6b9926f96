/**
 * The reference servers run whole on Bun and on Deno (the Node apps' own `src/main.ts`: the
 * framework, the store on PostgreSQL, the embedded sandbox, the job worker). On each runtime the
 * contract suite certifies the data-sharing server strictly, a restart included (the process
 * stopped and started again on the same schema and key file): its checks are a superset of basic
 * mode's. The basic server is the same reference server in the other mode (its `main.ts` differs
 * in the mode, name and defaults only), and what a mode changes is the runtime-independent market
 * logic, certified whole on Node (data-sharing: tools/contract-fuzz's certify.prism.data-sharing
 * test, through Prism and straight; basic: the README's certify line, scripts/test/
 * readme-commands.test.ts) and on each runtime's Web APIs
 * (runtimes.test.ts, data-sharing whole); so here it must start on the runtime, be ready, serve an
 * order through to its webhooks and pass basic's own checks (`modeSmokeChecks`). PostgreSQL is
 * TEST_DATABASE_URL, a fresh schema per server, dropped after; without it, the embedded PGlite in a
 * fresh data directory.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createHttpSandbox, modeSmokeChecks, runContractSuite } from '@bnpl-kit/contract-tests';
import { dropSchema, freshSchema, TEST_DATABASE_URL } from '@bnpl-kit/reference-server/testing';
import { freePort } from '@bnpl-kit/test-ports';
import { describe, expect, it } from 'vitest';
import { type ReferenceServerRun, runReferenceServer } from '../src/reference-server.js';
import { LOADED_REQUEST_TIMEOUT_MS } from './loaded-machine.js';

/** Per mode, the checks run: every one (undefined), or an order through its webhooks and basic's own. */
const CHECKS = { 'data-sharing': undefined, basic: modeSmokeChecks('basic') } as const;

describe.each(['bun', 'deno'] as const)('the reference server on %s', (runtime) => {
  it.for(['data-sharing', 'basic'] as const)(
    `runs in %s mode on ${TEST_DATABASE_URL ? 'PostgreSQL' : 'PGlite'} and passes its checks strictly`,
    async (mode, { onTestFinished }) => {
      const dataDir = await mkdtemp(join(tmpdir(), `bnpl-kit-${runtime}-ref-`));
      onTestFinished(() => rm(dataDir, { recursive: true, force: true }));
      const schema = freshSchema();
      if (TEST_DATABASE_URL) onTestFinished(() => dropSchema(schema));
      const env = {
        DATA_DIR: dataDir,
        // The same port after a restart: the sandbox delivers to the URL it registered.
        PORT: String(await freePort()),
        ...(TEST_DATABASE_URL && { DATABASE_URL: TEST_DATABASE_URL, DATABASE_SCHEMA: schema }),
      };
      let server: ReferenceServerRun = await runReferenceServer(runtime, mode, env);
      onTestFinished(() => server.stop().then(() => undefined));
      const ready = await fetch(`${server.url}/readyz`);
      expect(await ready.json()).toMatchObject({ status: 'ready', checks: { database: true, worker: true } });
      const { keys } = server;
      const report = await runContractSuite({
        requestTimeoutMs: LOADED_REQUEST_TIMEOUT_MS,
        marketUrl: server.url,
        mode,
        ...(CHECKS[mode] && { only: [...CHECKS[mode]] }),
        marketToken: keys.MARKET_API_TOKEN,
        bnplCallbackUrl: `${server.url}/bnpl/complete`,
        restartMarket: async () => {
          expect(await server.stop()).toBe(0);
          server = await runReferenceServer(runtime, mode, env);
        },
        sandbox: createHttpSandbox({
          url: `${server.url}/sandbox-service`,
          organizationId: keys.APP_ID,
          apiKey: keys.APP_API_KEY,
          signingKey: keys.SANDBOX_SIGNING_KEY,
        }),
      });
      const notPassed = report.results.filter((r) => r.status !== 'pass').map((r) => `${r.id}: ${r.message}`);
      expect(notPassed, server.output().slice(-3000)).toEqual([]);
      expect(report.ok).toBe(true);
      expect(report.summary.passed).toBe(CHECKS[mode]?.length ?? report.results.length);
    },
  );
});

/**
 * The market handler and verifyWebhook on Bun, Deno and Cloudflare's workerd, each started from
 * its npm binary: Web Crypto Ed25519 (key formats, algorithm names, the @noble/ed25519 fallback
 * agreeing with it on every shared vector) and the contract suite, strict, against the market the
 * runtime serves (memory store; the sandbox is a real HTTP server in this process): data-sharing
 * mode whole (workerd's on PostgreSQL when one is there), basic mode's own checks and an order
 * through it (why: at the runs below).
 */

import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createHttpSandbox, modeSmokeChecks, runContractSuite } from '@bnpl-kit/contract-tests';
import { webhookVectors } from '@bnpl-kit/contract-tests/testing';
import type { IntegrationMode } from '@bnpl-kit/core';
import { generateKeyPair } from '@bnpl-kit/core/testing';
import { dropSchema, freshSchema, TEST_DATABASE_URL } from '@bnpl-kit/reference-server/testing';
import { generateApiKey, type SandboxServer, startSandboxServer } from '@bnpl-kit/sandbox';
import { openStore } from '@bnpl-kit/store';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningRuntime, startRuntime } from '../src/runtimes.js';
import { LOADED_REQUEST_TIMEOUT_MS } from './loaded-machine.js';

const serviceKey = await generateKeyPair();

const databaseUrl = TEST_DATABASE_URL;
/**
 * With PostgreSQL, workerd's data-sharing run is whole on the PostgreSQL store (below), and on the
 * memory store `modeSmokeChecks` (an order through its webhooks, and data-sharing's own checks):
 * the runtime and the handler are the same in both, and the memory store is the test market's,
 * certified whole in-process (contract-tests), so a second whole run on workerd certified nothing
 * new (~10 CPU-seconds, issue 36). Without PostgreSQL the memory-store run is workerd's whole one.
 */
const WHOLE_ON_POSTGRESQL = databaseUrl ? 'workerd' : undefined;

/**
 * The runtimes run side by side (`describe.concurrent`), each its own process: most of a
 * certification is waiting (the "service never answers" check alone waits out the market's 15 s
 * service timeout), so one after another this file took the sum of eight certifications, the
 * longest file of the repository's test run. The steps of one runtime stay in order
 * (`it.sequential`): its market is configured for one mode at a time. Each runtime has its own
 * sandbox, because a certification injects faults into its sandbox and faults apply to every
 * organisation there.
 */
function useSandbox(): () => SandboxServer {
  let sandbox: SandboxServer | undefined;
  beforeAll(async () => {
    sandbox = await startSandboxServer({ port: 0, signingKey: serviceKey.privateKeyPem });
  });
  afterAll(() => sandbox?.close());
  return () => sandbox!;
}

/** What every runtime's verifyWebhook must answer for each shared vector. */
const expected = Object.fromEntries(
  webhookVectors.webhook_cases.map((v) => [
    v.name,
    v.expect === 'valid'
      ? 'valid'
      : (({ signature: 'signature_invalid', timestamp: 'timestamp_out_of_window' } as Record<string, string>)[
          v.reason as string
        ] ?? expect.stringMatching(/^signature_(missing|malformed|unsupported)/)),
  ]),
);

describe.concurrent.each(['bun', 'deno', 'workerd'] as const)('%s', (runtime) => {
  const sandbox = useSandbox();
  let running: RunningRuntime;
  beforeAll(async () => {
    running = await startRuntime(runtime);
  });
  afterAll(() => running?.close());

  it.sequential('verifies every shared vector alike on Web Crypto Ed25519 and the @noble/ed25519 fallback', async () => {
    const probe = await (await fetch(`${running.origin}/__probe`)).json();
    // The standard name takes raw and SPKI keys; Node's old `NODE-ED25519` name is not accepted.
    expect(probe.formats).toEqual({
      'Ed25519/raw': true,
      'Ed25519/spki': true,
      'NODE-ED25519/raw': false,
      'NODE-ED25519/spki': false,
    });
    expect(probe.noble).toEqual(expected);
    expect(probe.webcrypto).toEqual(probe.noble);
    expect({ auto: probe.auto, byDefault: probe.byDefault }).toEqual({
      auto: 'webcrypto',
      byDefault: expected,
    });
  });

  it.sequential('falls back to @noble/ed25519 where Web Crypto lacks Ed25519, with the same verdicts', async () => {
    const lacking = await startRuntime(runtime, { withoutEd25519: true });
    try {
      const probe = await (await fetch(`${lacking.origin}/__probe`)).json();
      expect(Object.values(probe.formats)).toEqual([false, false, false, false]);
      expect({ auto: probe.auto, byDefault: probe.byDefault }).toEqual({
        auto: 'noble',
        byDefault: expected,
      });
    } finally {
      await lacking.close();
    }
  });

  // A kept-alive connection the service closes as it is reused fails with no answer; under load
  // Bun's fetch met it in the middle of a certification (a create answered 503). The service client
  // sends the create once more with its Idempotency-Key; here the stand-in service drops the first
  // create's connection every time, so the repeat is observed on every runtime's fetch.
  it.sequential('repeats a create whose connection died without an answer, with its Idempotency-Key', async () => {
    const service = await dropsFirstCreate();
    try {
      const answer = await fetch(`${running.origin}/__create-order`, {
        method: 'POST',
        body: JSON.stringify({ serviceUrl: service.url }),
      });
      expect(await answer.json()).toEqual({ id: 'ord-dropped-once' });
      expect(service.createKeys).toHaveLength(2);
      expect(service.createKeys[1]).toBe(service.createKeys[0]);
      expect(service.createKeys[0]).toMatch(/^create-order:/);
    } finally {
      await service.close();
    }
  });

  // Strictly: every check passes (a restart is a new market on the runtime's store). Data-sharing
  // mode whole: its checks are a superset of basic's but basic's own, and reach every Web API the
  // runtime must get right (Web Crypto signing and verifying, bodies, fetch). Basic mode with
  // `modeSmokeChecks`: the handler starts in basic mode on the runtime and serves it; the rest of
  // basic's checks exercise market logic that is the same code on every runtime, certified whole in
  // basic mode on Node (contract-tests/test/suite on hono, the fetch-style handler served here too).
  if (runtime === WHOLE_ON_POSTGRESQL) {
    it.sequential('certifies strictly (data-sharing): its own checks and an order through its webhooks (whole on PostgreSQL below)', () =>
      certify(running, sandbox(), 'data-sharing', modeSmokeChecks('data-sharing')));
  } else {
    it.sequential('certifies strictly (data-sharing): every contract check passes, none skipped', () =>
      certify(running, sandbox(), 'data-sharing'));
  }
  it.sequential("certifies strictly (basic): an order through its webhooks, and basic's own checks", () =>
    certify(running, sandbox(), 'basic', modeSmokeChecks('basic')));
});

// workerd with the PostgreSQL store (pg over Cloudflare's sockets), a fresh schema, dropped after.
// What is new here is the store's driver under workerd, not the market's modes (basic's smoke set
// runs on workerd above, on the memory store): one strict run, in data-sharing mode, whose checks
// are a superset of basic mode's and reach every store write, proves it once, and is workerd's whole
// data-sharing run (WHOLE_ON_POSTGRESQL).
if (databaseUrl) {
  describe.concurrent('workerd on PostgreSQL (pg over cloudflare:sockets)', () => {
    const sandbox = useSandbox();
    const schema = freshSchema();
    let running: RunningRuntime;
    beforeAll(async () => {
      running = await startRuntime('workerd', { database: { url: databaseUrl, schema } });
    });
    afterAll(async () => {
      await running?.close();
      await dropSchema(schema);
    });
    it.sequential('certifies strictly (data-sharing), restart included', () =>
      certify(running, sandbox(), 'data-sharing'));
    it.sequential('kept the orders in the PostgreSQL schema, not in memory', async () => {
      const store = await openStore({ databaseUrl, schema, migrate: false, poolSize: 1 });
      try {
        const { rows } = await store.query<{ n: number }>('SELECT count(*)::int AS n FROM bnpl_orders');
        expect(rows[0]!.n).toBeGreaterThan(0);
      } finally {
        await store.close();
      }
    });
  });
}

/**
 * A stand-in service that hands out a token and creates orders, but destroys the connection of the
 * first create it reads without answering; it records every create's Idempotency-Key.
 */
async function dropsFirstCreate() {
  const createKeys: string[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const reply = (data: unknown) =>
        res
          .writeHead(200, { 'content-type': 'application/json' })
          .end(JSON.stringify({ success: true, data }));
      if (req.url === '/v1/token') return reply({ access_token: 'tok-1', expires_in: 3600 });
      createKeys.push(String(req.headers['idempotency-key']));
      if (createKeys.length === 1) return req.socket.destroy();
      const sent = JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, unknown>;
      reply({ id: 'ord-dropped-once', ...sent, order_status: 'PENDING' });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    createKeys,
    close: () => {
      server.closeAllConnections();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** The contract suite, strict, against the market the runtime serves in `mode`. */
async function certify(
  running: RunningRuntime,
  sandbox: SandboxServer,
  mode: IntegrationMode,
  only?: readonly string[],
): Promise<void> {
  const runtime = running.runtime;
  const dataSharing = mode === 'data-sharing';
  const marketUrl = `${running.origin}/bnpl`;
  const organizationId = `org-${runtime}-${mode}`;
  const orgKey = await generateKeyPair();
  const config = {
    mode,
    serviceUrl: sandbox.url,
    apiKey: generateApiKey(),
    organizationId,
    servicePublicKey: serviceKey.publicKey,
    ...(dataSharing && { appSigningKey: orgKey.privateKeyPem }),
    publicBaseUrl: marketUrl,
    marketToken: `mkt_${crypto.randomUUID()}`,
    callbackUrl: `${running.origin}/shop/bnpl-complete`,
  };
  const configured = await fetch(`${running.origin}/__configure`, {
    method: 'POST',
    body: JSON.stringify(config),
  });
  expect(configured.status).toBe(204);
  sandbox.sandbox.organizations.upsert({
    id: organizationId,
    apiKeys: [config.apiKey],
    apiBaseUrl: marketUrl,
    webhookUrls: [`${marketUrl}/v1/webhook`],
    ...(dataSharing && {
      offerFilteringUrl: `${marketUrl}/v1/offers/filter`,
      publicKey: orgKey.publicKey,
    }),
  });
  const report = await runContractSuite({
    requestTimeoutMs: LOADED_REQUEST_TIMEOUT_MS,
    marketUrl,
    mode,
    ...(only && { only: [...only] }),
    marketToken: config.marketToken,
    restartMarket: async () => {
      expect((await fetch(`${running.origin}/__restart`, { method: 'POST' })).status).toBe(204);
    },
    bnplCallbackUrl: config.callbackUrl,
    // The test market leaves disbursement to the market's systems (no handleWebhook hook), and says so:
    // webhook.effect-before-record is then "not exercised", declared (as in contract-tests' adapter suite).
    lacks: ['disburse-on-readiness'],
    sandbox: createHttpSandbox({
      url: sandbox.url,
      organizationId,
      apiKey: config.apiKey,
      signingKey: serviceKey.privateKeyPem,
    }),
  });
  const declared = (r: (typeof report.results)[number]) =>
    r.status === 'not-exercised' && r.lacks?.capability === 'disburse-on-readiness' && r.lacks.declared;
  const notPassed = report.results
    .filter((r) => r.status !== 'pass' && !declared(r))
    .map((r) => `${r.id}: ${r.message}`);
  expect(notPassed).toEqual([]);
  expect(report.ok).toBe(true);
  if (only) expect(report.results.map((r) => r.id).sort()).toEqual([...only].sort());
}

/**
 * Prism in front of each reference server (issue 31): `prism proxy docs/openapi/market-<mode>.json`
 * with `--errors`, before the reference server as it runs in sandbox mode (embedded sandbox, PGlite
 * in memory). Through it go the fuzz's requests (valid-shaped and mutated, src/prism-fuzz.ts) and a
 * real order flow; Prism must find no violation of the committed document, request or answer. A
 * control proves the detector: the same server behind a document that demands a member the server
 * never sends must be reported.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { IntegrationMode } from '@bnpl-kit/core';
import { signWebhook } from '@bnpl-kit/core/testing';
import { type ReferenceServer, startReferenceServer } from '@bnpl-kit/reference-server';
import { orderRequest } from '@bnpl-kit/reference-server/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { documentNamed, operationsOf, RUNS, SEED, type Target } from '../src/fuzz.js';
import { type PrismProxy, type PrismVerdict, prismVerdictOf, startPrism } from '../src/prism.js';
import { newTally, type PrismTally, prismFuzzer } from '../src/prism-fuzz.js';

const documentPath = (mode: IntegrationMode) =>
  fileURLToPath(new URL(`../../../docs/openapi/market-${mode}.json`, import.meta.url));

interface Running {
  server: ReferenceServer;
  dataDir: string;
  validating: PrismProxy;
  forwarding: PrismProxy;
  target: Target;
}

async function startServer(mode: IntegrationMode): Promise<{ server: ReferenceServer; dataDir: string }> {
  const dataDir = await mkdtemp(join(tmpdir(), 'bnpl-prism-'));
  const server = await startReferenceServer({
    integrationMode: mode,
    name: `${mode}-server`,
    defaults: { port: 0, dataDir },
    env: { MODE: 'sandbox', PORT: '0', FRAMEWORK: 'hono', DATA_DIR: dataDir, LOG_LEVEL: 'silent' },
    storeOptions: { memory: true },
  });
  return { server, dataDir };
}

async function credentialsOf(server: ReferenceServer, mode: IntegrationMode): Promise<Target['credentials']> {
  const demo = (await (await fetch(`${server.url}/v1/demo-user`)).json()) as { session_token: string };
  const credentials: Target['credentials'] = {
    marketSystems: { authorization: `Bearer ${server.marketApiToken.reveal()}` },
    userSession: { authorization: `Bearer ${demo.session_token}` },
  };
  if (mode === 'data-sharing') {
    const answer = await fetch(
      `${server.embedded!.serviceUrl}/sandbox/organizations/${server.appId}/offer-filter-token`,
      { method: 'POST' },
    );
    const { access_token } = (await answer.json()) as { access_token: string };
    credentials.serviceToken = { authorization: `Bearer ${access_token}` };
  }
  return credentials;
}

/** The service's user ID for a market user, as the browser SDK learns it (the availability call). */
async function serviceUserOf(server: ReferenceServer, localId: string): Promise<string> {
  const service = server.embedded!.serviceUrl;
  const token = await fetch(`${service}/v1/token`, {
    method: 'POST',
    headers: { 'x-api-key': server.keys!.appApiKey.reveal() },
  });
  const { data } = (await token.json()) as { data: { access_token: string } };
  const offers = await fetch(`${service}/v1/claim-providers/offers`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${data.access_token}` },
    body: JSON.stringify({ local_id: localId, product_types: ['consumerBNPL'] }),
  });
  return ((await offers.json()) as { data: { credify_id: string } }).data.credify_id;
}

/** One request through a proxy. */
async function through(
  proxy: PrismProxy,
  method: string,
  path: string,
  init: { headers?: Record<string, string>; json?: unknown; body?: string | Uint8Array } = {},
): Promise<PrismVerdict> {
  const body = init.body ?? (init.json === undefined ? undefined : JSON.stringify(init.json));
  // One content type: two (`Content-Type` and `content-type`) would be joined into one invalid value.
  const headers = new Headers(body !== undefined ? { 'content-type': 'application/json' } : {});
  for (const [name, value] of Object.entries(init.headers ?? {})) headers.set(name, value);
  const response = await fetch(`${proxy.origin}${path}`, {
    method,
    redirect: 'manual',
    signal: AbortSignal.timeout(30_000),
    headers,
    ...(body !== undefined && { body: body as BodyInit }),
  });
  return prismVerdictOf(response);
}

/** A forwarded answer with the status expected and nothing Prism objects to. */
function expectClean(verdict: PrismVerdict, status: number, what: string) {
  const seen = {
    by: verdict.by,
    status: verdict.status,
    request: verdict.request,
    response: verdict.response,
  };
  expect(seen, `${what}: ${JSON.stringify(verdict.body).slice(0, 400)}`).toEqual({
    by: 'server',
    status,
    request: [],
    response: [],
  });
}

describe.each(['basic', 'data-sharing'] as const)('Prism in front of the %s reference server', (mode) => {
  const document = documentNamed(`market-${mode}.json`);
  const tally: PrismTally = newTally();
  let running: Running;

  beforeAll(async () => {
    const { server, dataDir } = await startServer(mode);
    const [validating, forwarding] = await Promise.all([
      startPrism({ document: documentPath(mode), upstream: server.url, validateRequest: true }),
      startPrism({ document: documentPath(mode), upstream: server.url, validateRequest: false }),
    ]);
    running = { server, dataDir, validating, forwarding, target: { origin: '', credentials: {} } };
    running.target.credentials = await credentialsOf(server, mode);
  }, 120_000);

  afterAll(async () => {
    console.log(
      `prism ${mode}: seed ${SEED}, ${RUNS} runs per operation: ${tally.sent} generated, ${tally.notCarried} not carried by Prism, ${tally.answeredByServer} answered by the server, ${tally.refusedByPrism} refused by Prism (then forwarded), ${tally.created} orders created, ${tally.findings.length} violations\n  ${JSON.stringify(tally.counts)}`,
    );
    await running?.validating.close();
    await running?.forwarding.close();
    await running?.server.close();
    if (running) await rm(running.dataDir, { recursive: true, force: true });
  });

  it.each(operationsOf(document).map((op) => [op.operation.operationId, op] as const))(
    'fuzz %s through Prism',
    async (_name, op) => {
      const fuzz = prismFuzzer(
        document,
        { validating: running.validating.origin, forwarding: running.forwarding.origin },
        tally,
      );
      await fuzz(op, running.target);
    },
    120_000,
  );

  it('Prism found no violation of the document in the fuzz traffic', () => {
    expect(tally.findings).toEqual([]);
    expect(tally.answeredByServer).toBeGreaterThan(0);
    expect(tally.created).toBeGreaterThan(0);
  });

  it('a real order flow keeps the document, request and answer', async () => {
    const { server, validating, target } = running;
    const systems = target.credentials.marketSystems!;
    const admin = `${server.embedded!.serviceUrl}/sandbox/orders`;
    const order = orderRequest();
    const created = await through(validating, 'POST', '/v1/orders', { headers: systems, json: order });
    expectClean(created, 201, 'create');
    const id = (created.body as { id: string }).id;
    expectClean(
      await through(validating, 'POST', '/v1/orders', { headers: systems, json: order }),
      200,
      'the same create again',
    );
    expectClean(
      await through(validating, 'GET', `/v1/orders/service/${id}`, { headers: systems }),
      200,
      'status',
    );
    // Not through Prism: its forwarder follows redirects (src/prism-fuzz.ts).
    const redirect = await fetch(`${server.url}/v1/bnpl/orders/${id}/redirect`, { redirect: 'manual' });
    expect(redirect.status).toBe(302);
    expect(redirect.headers.get('location')).toMatch(/^http/);
    // Approved at the service, and told to the market by a signed webhook through Prism (the
    // service's own delivery goes straight to the server, and may come later).
    const approve = async (orderId: string) => {
      expect((await fetch(`${admin}/${orderId}/approve`, { method: 'POST' })).status).toBe(200);
      const event = { type: 'BNPL_ORDER_STATUS_UPDATED', order_id: orderId, order_status: 'APPROVED' };
      const signed = await signWebhook({
        url: `${server.publicBaseUrl}/v1/webhook`,
        body: JSON.stringify(event),
        signingKey: server.keys!.sandboxSigningKey!.reveal(),
      });
      const headers = signed.headers as Record<string, string>;
      const answer = await through(validating, 'POST', '/v1/webhook', { headers, body: signed.body });
      expectClean(answer, 200, 'signed webhook');
    };
    await approve(id);
    expectClean(await through(validating, 'GET', '/v1/demo-user'), 200, 'demo user');
    if (mode === 'basic') return;

    expectClean(
      await through(validating, 'POST', `/v1/orders/${id}/cancel`, { headers: systems }),
      202,
      'cancel',
    );
    const second = await through(validating, 'POST', '/v1/orders', {
      headers: systems,
      json: orderRequest(),
    });
    expectClean(second, 201, 'second create');
    const secondId = (second.body as { id: string }).id;
    await approve(secondId);
    expectClean(
      await through(validating, 'POST', `/v1/orders/${secondId}/disburse`, { headers: systems, json: {} }),
      202,
      'disburse',
    );
    const user = (await (await fetch(`${server.url}/v1/demo-user`)).json()) as { id: string };
    const credifyId = await serviceUserOf(server, user.id);
    expectClean(
      await through(validating, 'POST', '/v1/push-claims', {
        headers: target.credentials.userSession!,
        json: { id: user.id, credify_id: credifyId },
      }),
      200,
      'push claims',
    );
    expectClean(
      await through(validating, 'POST', '/v1/offers/filter', {
        headers: target.credentials.serviceToken!,
        json: { credify_id: credifyId, offers: [{ code: 'any', conditions: [] }] },
      }),
      200,
      'filter offers',
    );
  });
});

describe('Prism as a detector (control)', () => {
  it('reports an answer that breaks the document it was given, and a request that does', async () => {
    const { server, dataDir } = await startServer('basic');
    const altered = structuredClone(documentNamed('market-basic.json')) as unknown as {
      components: { schemas: { OrderRecord: { required?: string[] } } };
    };
    altered.components.schemas.OrderRecord.required = [
      ...(altered.components.schemas.OrderRecord.required ?? []),
      'member_the_server_never_sends',
    ];
    const path = join(dataDir, 'altered.json');
    await writeFile(path, JSON.stringify(altered));
    const proxy = await startPrism({ document: path, upstream: server.url, validateRequest: true });
    try {
      const answer = await through(proxy, 'POST', '/v1/orders', {
        headers: { authorization: `Bearer ${server.marketApiToken.reveal()}` },
        json: orderRequest(),
      });
      expect(answer.prismType).toBe('VIOLATIONS');
      expect(JSON.stringify(answer.response)).toContain('member_the_server_never_sends');
      // And a request the document refuses is reported on the request side, not forwarded.
      const { reference_id: _left, ...incomplete } = orderRequest();
      const refused = await through(proxy, 'POST', '/v1/orders', {
        headers: { authorization: `Bearer ${server.marketApiToken.reveal()}` },
        json: incomplete,
      });
      expect(refused.prismType).toBe('UNPROCESSABLE_ENTITY');
      expect(JSON.stringify(refused.request)).toContain('reference_id');
    } finally {
      await proxy.close();
      await server.close();
      await rm(dataDir, { recursive: true, force: true });
    }
  }, 120_000);
});

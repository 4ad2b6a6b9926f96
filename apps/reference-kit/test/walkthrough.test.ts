/**
 * The README walkthrough as an end-to-end test over real HTTP, for both modes on all three
 * frameworks: create an order, drive the embedded sandbox's provider through its admin API (served
 * by the same server under /sandbox-service), see the signed webhooks arrive through the adapter
 * and the stored status change; in data-sharing mode also push claims, see the offer filter rank
 * the demo users, cancel an order and see the disbursement happen exactly once. The servers of one
 * mode share an in-memory PGlite (start-up cost), each with its own sandbox, keys and orders.
 */
import type { IntegrationMode } from '@bnpl-kit/core';
import { ERROR_CODES, ERROR_DOCS_URL } from '@bnpl-kit/core/wire';
import { openStore, type Store } from '@bnpl-kit/store';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FRAMEWORK_NAMES } from '../src/index.js';
import {
  dropSchema,
  freshSchema,
  pgbouncerAvailable,
  type RunningPgBouncer,
  startPgBouncer,
  TEST_DATABASE_URL,
  waitFor,
} from '../src/testing/index.js';
import { http, marketClient, sandboxAdmin } from './helpers/market-client.js';
import { removeDir, startTestServer, type TestServer } from './helpers/servers.js';

const MODES: IntegrationMode[] = ['basic', 'data-sharing'];

/** No credential may reach a log line. */
function expectNoSecretsLogged(server: TestServer, sessions: string[]): void {
  const logs = server.logs.join('');
  expect(logs).toContain('"msg":"request"');
  for (const secret of [server.marketApiToken.reveal(), server.keys!.appApiKey.reveal(), ...sessions]) {
    expect(logs).not.toContain(secret);
  }
}

async function basicFlow(server: TestServer): Promise<void> {
  const market = marketClient(server.publicBaseUrl, server.marketApiToken.reveal());
  const sandbox = sandboxAdmin(server.embedded!.serviceUrl);

  const unauthenticated = await http(`${server.url}/v1/orders`, { json: {}, token: 'wrong' });
  expect(unauthenticated.status).toBe(401);
  expect(unauthenticated.headers.get('content-type')).toContain('application/problem+json');

  // Basic mode shares no claims: the organisation approves only the offer without a condition.
  const org = await http(`${server.embedded!.serviceUrl}/sandbox/organizations/${server.appId}`);
  expect((org.body.approved_offers as { code: string }[]).map((o) => o.code)).toEqual(['sandbox-pay-in-3']);

  const orderId = await market.createOrder();
  expect(await market.storedStatus(orderId)).toBe('PENDING');
  await sandbox.act(orderId, 'approve');
  await market.waitForStatus(orderId, 'APPROVED');
  await sandbox.act(orderId, 'ready');
  await market.waitForStatus(orderId, 'DISBURSING');
  await sandbox.act(orderId, 'paid');
  await market.waitForStatus(orderId, 'PAID');

  const deliveries = await waitFor(
    async () => {
      const all = await sandbox.deliveries(orderId);
      return all.length === 4 && all.every((d) => d.status === 'delivered') ? all : undefined;
    },
    { what: 'four delivered webhooks' },
  );
  for (const delivery of deliveries) {
    expect(delivery.url).toBe(`${server.publicBaseUrl}/v1/webhook`);
    expect(delivery.attempts.at(-1)?.response_status).toBe(200);
  }
  const status = await http(`${server.url}/v1/orders/service/${orderId}`, {
    token: server.marketApiToken.reveal(),
  });
  expect(status.body).toMatchObject({ id: orderId, status: 'PAID' });
  // Basic mode: cancel and disburse are the dashboard's business, not endpoints of this server.
  expect((await http(`${server.url}/v1/orders/${orderId}/cancel`, { json: {} })).status).toBe(404);
}

async function dataSharingFlow(server: TestServer): Promise<string[]> {
  const token = server.marketApiToken.reveal();
  const market = marketClient(server.publicBaseUrl, token);
  const sandbox = sandboxAdmin(server.embedded!.serviceUrl);
  const apiKey = server.keys!.appApiKey.reveal();

  const demo = await http(`${server.url}/v1/demo-user`);
  const users = demo.body.users as { id: string; session_token: string }[];
  expect(users.map((u) => u.id)).toEqual(['user-an', 'user-binh']);
  const [an, binh] = users as [(typeof users)[0], (typeof users)[0]];

  // The offer filter ranks the users: An meets the gold offer's condition, Bình misses it.
  const forAn = await sandbox.availability(apiKey, an.id);
  expect(forAn.status).toBe(200);
  expect(forAn.offers.map((o) => [o.code, o.evaluation_result.rank])).toEqual([
    ['sandbox-pay-in-3', 1],
    ['loyalty-gold-pay-in-6', 1],
  ]);
  const forBinh = await sandbox.availability(apiKey, binh.id);
  expect(forBinh.offers.map((o) => o.code)).toEqual(['sandbox-pay-in-3']);

  // Push claims as the signed-in user; another user's session is refused.
  const body = { id: an.id, credify_id: forAn.credifyId };
  const refused = await http(`${server.url}/v1/push-claims`, { json: body, token: binh.session_token });
  expect(refused.status).toBe(403);
  const pushed = await http(`${server.url}/v1/push-claims`, { json: body, token: an.session_token });
  expect(pushed).toMatchObject({ status: 200, body: { credify_id: forAn.credifyId } });
  const scopes = ['email', 'phone', 'profile', `${server.appId}:loyalty`];
  const tokens = await sandbox.claims(forAn.credifyId);
  expect(tokens.map((t) => t.scope_name).sort()).toEqual(scopes.sort());
  const stored = await server.store.findUserById(an.id);
  expect(stored?.credifyId).toBe(forAn.credifyId);
  // (The store is shared with earlier servers of this file, which used other organisation IDs.)
  expect(Object.keys(await server.store.listCommitments(an.id))).toEqual(expect.arrayContaining(scopes));

  // Readiness → a disbursement job in the webhook's transaction → the worker disburses once.
  const orderId = await market.createOrder();
  await sandbox.act(orderId, 'approve');
  await market.waitForStatus(orderId, 'APPROVED');
  await sandbox.act(orderId, 'ready');
  await market.waitForStatus(orderId, 'PAID');
  const disbursements = await sandbox.disbursements(orderId);
  expect(disbursements).toHaveLength(1);
  expect(disbursements[0]).toMatchObject({ source: 'api', idempotency_key: `disburse:${orderId}` });
  // The order can reach PAID (the service's webhook after the disbursement) before the worker
  // records its job as done: wait for the job, not for the clock.
  const job = await waitFor(
    async () => {
      const found = await server.store.findJobByDedupeKey(`disburse:${orderId}`);
      return found?.status === 'done' || found?.status === 'failed' ? found : undefined;
    },
    { what: 'the disbursement job to finish' },
  );
  expect(job).toMatchObject({ status: 'done', attempts: 1 });
  await waitFor(async () => (await sandbox.deliveries(orderId)).every((d) => d.status === 'delivered'), {
    what: 'every webhook of the order to be answered',
  });
  expect(await sandbox.disbursements(orderId)).toHaveLength(1);

  // Cancel an approved order by API.
  const second = await market.createOrder();
  await sandbox.act(second, 'approve');
  await market.waitForStatus(second, 'APPROVED');
  const cancelled = await http(`${server.url}/v1/orders/${second}/cancel`, { json: {}, token });
  expect(cancelled).toMatchObject({ status: 202, body: { id: second, status: 'CANCELED' } });
  expect(await market.storedStatus(second)).toBe('CANCELED');
  expect(await sandbox.disbursements(second)).toHaveLength(0);
  return [an.session_token, binh.session_token];
}

/** `/openapi.json` is this mode's generated document; `/docs` renders it from locally served files. */
async function expectApiReference(server: TestServer, mode: IntegrationMode) {
  const document = await http(`${server.url}/openapi.json`);
  expect(document.status).toBe(200);
  expect(document.body).toMatchObject({ openapi: '3.1.0', servers: [{ url: server.publicBaseUrl }] });
  const paths = Object.keys((document.body as { paths: Record<string, unknown> }).paths);
  expect(paths.includes('/v1/push-claims')).toBe(mode === 'data-sharing');
  const page = await fetch(`${server.url}/docs`);
  expect(page.headers.get('content-type')).toMatch(/^text\/html/);
  const html = await page.text();
  expect(html).not.toMatch(/https?:\/\//);
  for (const asset of html.matchAll(/(?:src|href)="([^"]+)"/g)) {
    const answer = await fetch(`${server.url}${asset[1]}`);
    expect(answer.status, asset[1]).toBe(200);
    expect((await answer.text()).length, asset[1]).toBeGreaterThan(0);
  }
}

/** A problem's `type` names its catalogue entry; the server serves that entry at /errors/<code>. */
async function expectErrorCatalogue(server: TestServer) {
  const problem = await http(`${server.url}/v1/orders`, { json: {} });
  const body = problem.body as { type: string; code: string };
  expect(body.type).toBe(`${ERROR_DOCS_URL}#${body.code}`);
  const entry = await http(`${server.url}/errors/${new URL(body.type).hash.slice(1)}`);
  expect(entry).toMatchObject({
    status: 200,
    body: { code: body.code, status: problem.status, type: body.type },
  });
  const all = await http(`${server.url}/errors`);
  expect((all.body as { errors: { code: string }[] }).errors.map((e) => e.code)).toEqual(ERROR_CODES);
  const page = await fetch(`${server.url}/errors/${body.code}`, { headers: { accept: 'text/html' } });
  expect(await page.text()).toContain(`<h2>${body.code}</h2>`);
}

for (const mode of MODES) {
  describe(`walkthrough, ${mode} mode`, () => {
    let store: Store;
    beforeAll(async () => {
      store = await openStore({ memory: true });
    });
    afterAll(() => store.close());

    for (const framework of FRAMEWORK_NAMES) {
      it(`on ${framework}`, async () => {
        const server = await startTestServer({ mode, framework, store });
        try {
          const ready = await http(`${server.url}/readyz`);
          expect(ready).toMatchObject({ status: 200, body: { status: 'ready' } });
          expect((await http(`${server.url}/healthz`)).status).toBe(200);
          expect((await http(`${server.url}/no-such-page`)).status).toBe(404);
          await expectApiReference(server, mode);
          await expectErrorCatalogue(server);
          if (mode === 'basic') {
            await basicFlow(server);
            expectNoSecretsLogged(server, []);
          } else {
            expectNoSecretsLogged(server, await dataSharingFlow(server));
          }
        } finally {
          await server.close();
          await removeDir(server.dataDir);
        }
      });
    }
  });
}

/** Request log lines of a server: how many, and which answered 5xx. */
function answered(server: TestServer): { requests: number; serverErrors: string[] } {
  const lines = server.logs
    .map((line) => JSON.parse(line) as { msg?: string; status?: number; method?: string; path?: string })
    .filter((line) => line.msg === 'request');
  return {
    requests: lines.length,
    serverErrors: lines.filter((l) => (l.status ?? 0) >= 500).map((l) => `${l.status} ${l.method} ${l.path}`),
  };
}

// Issue 20 §1: both walkthroughs on a PostgreSQL behind a PgBouncer in transaction mode (stock
// configuration: it refuses session startup parameters and shares few server connections).
describe.runIf(TEST_DATABASE_URL && pgbouncerAvailable)(
  'walkthrough through PgBouncer, transaction mode',
  () => {
    let pooler: RunningPgBouncer;
    beforeAll(async () => {
      pooler = await startPgBouncer(TEST_DATABASE_URL!, { poolMode: 'transaction' });
    });
    afterAll(() => pooler?.stop());

    for (const mode of MODES) {
      it(`${mode} mode, on hono`, async () => {
        const schema = freshSchema();
        const store = await openStore({ databaseUrl: pooler.url, schema });
        try {
          const server = await startTestServer({ mode, framework: 'hono', store });
          try {
            expect(await http(`${server.url}/readyz`)).toMatchObject({
              status: 200,
              body: { status: 'ready' },
            });
            if (mode === 'basic') await basicFlow(server);
            else await dataSharingFlow(server);
            const { requests, serverErrors } = answered(server);
            expect(requests).toBeGreaterThan(0);
            expect(serverErrors).toEqual([]);
          } finally {
            await server.close();
            await removeDir(server.dataDir);
          }
        } finally {
          await store.close();
          await dropSchema(schema);
        }
      });
    }
  },
);

/**
 * Issue 10: HTTP fuzzing of every endpoint of both modes on all three adapters, with fast-check.
 * Generated hostile bodies, headers, paths and IDs (NUL, lone surrogates, non-Latin-1, CRLF, huge
 * and deeply nested values) must never get a 5xx, every error must be problem+json without
 * internals, and no order may exist at the service without a local row (no orphans). Runs are
 * bounded (seeded, a fixed number per property) so the suite stays fast in CI.
 */
import type { IntegrationMode } from '@bnpl-kit/core';
import { signWebhook } from '@bnpl-kit/core/testing';
import { openStore, type Store } from '@bnpl-kit/store';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FRAMEWORK_NAMES, type FrameworkName } from '../src/index.js';
import {
  hostileHeader,
  hostileOrder,
  hostileString,
  hostileValue,
  INTERNALS,
  pathSegment,
} from './helpers/hostile.js';
import { removeDir, startTestServer, type TestServer } from './helpers/servers.js';

const RUNS = Number(process.env.FUZZ_RUNS ?? 25);
const SEED = Number(process.env.FUZZ_SEED ?? 20_261_123);
const MODES: IntegrationMode[] = ['basic', 'data-sharing'];

interface Sent {
  method: string;
  path: string;
  headers?: Record<string, string>;
  body?: string | Uint8Array;
}

/** What every answer must satisfy, whatever was sent. */
async function expectSane(server: TestServer, request: Sent): Promise<number> {
  const response = await fetch(`${server.url}${request.path}`, {
    method: request.method,
    headers: request.headers,
    body: request.body as BodyInit | undefined,
    redirect: 'manual',
  });
  const text = await response.text();
  const where = `${request.method} ${request.path.slice(0, 120)} → ${response.status} ${text.slice(0, 300)}`;
  expect(response.status, where).toBeLessThan(500);
  expect(text, where).not.toMatch(INTERNALS);
  if (response.status >= 400) {
    expect(response.headers.get('content-type'), where).toBe('application/problem+json');
    const problem = JSON.parse(text) as Record<string, unknown>;
    expect(problem.status, where).toBe(response.status);
    expect(typeof problem.title, where).toBe('string');
  }
  return response.status;
}

const json = (body: unknown) => JSON.stringify(body);

describe.each(MODES)('HTTP fuzz, %s mode', (mode) => {
  let store: Store;
  const servers = new Map<FrameworkName, TestServer>();
  beforeAll(async () => {
    store = await openStore({ memory: true });
    for (const framework of FRAMEWORK_NAMES)
      servers.set(framework, await startTestServer({ mode, framework, store }));
  });
  afterAll(async () => {
    for (const server of servers.values()) {
      await server.close();
      await removeDir(server.dataDir);
    }
    await store.close();
  });

  const each = (run: (server: TestServer) => Promise<void>) => async () => {
    for (const server of servers.values()) await run(server);
  };
  const property = <T>(arb: fc.Arbitrary<T>, check: (server: TestServer, value: T) => Promise<unknown>) =>
    each((server) =>
      fc.assert(
        fc.asyncProperty(arb, async (value) => {
          await check(server, value);
        }),
        { numRuns: RUNS, seed: SEED, endOnFailure: true },
      ),
    );

  it(
    'POST /v1/orders with hostile bodies',
    property(hostileOrder, (server, order) =>
      expectSane(server, {
        method: 'POST',
        path: '/v1/orders',
        headers: {
          'content-type': 'application/json',
          authorization: `Bearer ${server.marketApiToken.reveal()}`,
        },
        body: json(order),
      }),
    ),
  );

  it(
    'every endpoint with hostile path IDs, authenticated and not',
    property(fc.tuple(hostileString, fc.boolean()), (server, [id, authenticated]) => {
      const segment = pathSegment(id) || '%20';
      const auth = authenticated ? { authorization: `Bearer ${server.marketApiToken.reveal()}` } : undefined;
      const paths: [string, string][] = [
        ['GET', `/v1/orders/service/${segment}`],
        ['GET', `/v1/bnpl/orders/${segment}/redirect`],
        ['POST', `/v1/orders/${segment}/cancel`],
        ['POST', `/v1/orders/${segment}/disburse`],
        ['GET', `/bnpl/complete?order_id=${segment}`],
        ['GET', `/v1/${segment}`],
        ['POST', `/${segment}`],
      ];
      return Promise.all(paths.map(([method, path]) => expectSane(server, { method, path, headers: auth })));
    }),
  );

  it(
    'every endpoint with hostile headers and bodies',
    property(fc.tuple(hostileHeader, hostileHeader, hostileValue), (server, [h1, h2, value]) => {
      const headers = {
        authorization: h1,
        'content-type': h2.length < 200 ? h2 : 'application/json',
        'x-request-id': h2,
        signature: h1,
        'x-signature-algorithm': 'EdDSA',
        'x-event-id': h2,
        'x-event-timestamp': h1.slice(0, 40),
      };
      const body = json(value) ?? 'null';
      const posts = [
        '/v1/orders',
        '/v1/webhook',
        '/v1/push-claims',
        '/v1/offers/filter',
        '/v1/orders/x/disburse',
      ];
      return Promise.all([
        ...posts.map((path) => expectSane(server, { method: 'POST', path, headers, body })),
        expectSane(server, { method: 'GET', path: '/v1/demo-user', headers }),
      ]);
    }),
  );

  it(
    'signed webhooks with hostile events and event IDs',
    property(
      fc.tuple(
        hostileValue,
        hostileString,
        fc.constantFrom('BNPL_ORDER_STATUS_UPDATED', 'OFFER_TRANSACTION_STATUS_UPDATED', 'X'),
      ),
      async (server, [value, eventId, type]) => {
        const body = {
          type,
          order_id: value,
          order_status: 'APPROVED',
          transaction_id: value,
          credify_id: 'c',
        };
        const signed = await signWebhook({
          url: server.market.webhookUrl,
          body: json(body),
          signingKey: server.keys!.sandboxSigningKey!.reveal(),
          // Headers are Latin-1: the ID is what a header can carry of the hostile string.
          eventId: eventId.replace(/[^\x20-\xff]/g, '?') || 'e',
        });
        return expectSane(server, {
          method: 'POST',
          path: '/v1/webhook',
          headers: signed.headers,
          body: signed.body,
        });
      },
    ),
  );

  if (mode === 'data-sharing') {
    it(
      'POST /v1/push-claims as the signed-in user with hostile IDs',
      property(fc.tuple(hostileString, hostileValue), async (server, [credifyId, other]) => {
        const [userId, session] = Object.entries(server.keys!.demoSessions)[0]!;
        for (const body of [
          { id: userId, credify_id: credifyId },
          { id: other, credify_id: other },
        ]) {
          await expectSane(server, {
            method: 'POST',
            path: '/v1/push-claims',
            headers: { 'content-type': 'application/json', authorization: `Bearer ${session}` },
            body: json(body),
          });
        }
      }),
    );
  }

  it('left no order at the service without a local row', async () => {
    let checked = 0;
    for (const server of servers.values()) {
      for (const order of server.embedded!.sandbox.orders.list()) {
        expect(await store.findOrderById(order.id), `service order ${order.id}`).toBeDefined();
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(0);
  });
});

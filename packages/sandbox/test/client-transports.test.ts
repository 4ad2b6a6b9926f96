/**
 * The typed client against the sandbox, through msw and through the standalone HTTP server: one
 * suite, run for both transports, so the in-process and the real-network paths cannot differ.
 */

import type { ClaimObject, ServiceClient } from '@bnpl-kit/core';
import { generateKeyPair, kitErrorOf } from '@bnpl-kit/core/testing';
import { HttpResponse, http } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  createManualClock,
  createSandbox,
  createSandboxHandlers,
  type Sandbox,
  type SandboxOptions,
  startSandboxServer,
} from '../src/index.js';
import { API_KEY, BASE_URL, clientFor, fakeMarket, marketOrg, orderInput, pushClaims } from './support.js';

/**
 * A client timeout that a healthy call to an in-process sandbox stays within while other work keeps
 * both cores busy; the tests that wait for it are the ones whose call is never answered.
 */
const LOADED_MACHINE_CALL_MS = 3_000;

const msw = setupServer();
beforeAll(() => msw.listen({ onUnhandledRequest: 'bypass' }));
afterEach(() => msw.resetHandlers());
afterAll(() => msw.close());

interface Running {
  baseUrl: string;
  sandbox: Sandbox;
  close(): Promise<void>;
}

const transports: [string, (options: SandboxOptions) => Promise<Running>][] = [
  [
    'msw',
    async (options) => {
      const sandbox = createSandbox(options);
      msw.use(...createSandboxHandlers(sandbox, { baseUrl: `${BASE_URL}/api` }));
      return { baseUrl: `${BASE_URL}/api`, sandbox, close: async () => sandbox.close() };
    },
  ],
  [
    'http server',
    async (options) => {
      const server = await startSandboxServer({ ...options, port: 0, host: '127.0.0.1' });
      return { baseUrl: server.url, sandbox: server.sandbox, close: () => server.close() };
    },
  ],
];

describe.each(transports)('client ↔ sandbox through %s', (_, start) => {
  let running: Running | undefined;
  afterEach(async () => {
    await running?.close();
    running = undefined;
  });

  async function setup(options: SandboxOptions = {}) {
    const market = fakeMarket();
    running = await start({ organizations: [marketOrg()], fetch: market.fetch, ...options });
    return { ...running, market, client: clientFor(running.baseUrl) };
  }

  it('serves every operation of the route table', async () => {
    const keys = await generateKeyPair();
    const { sandbox, client } = await setup({
      organizations: [marketOrg({ signingKey: keys.privateKeyPem })],
    });

    const created = await client.createOrder(orderInput());
    expect(created).toMatchObject({ referenceId: 'order-1', orderStatus: 'PENDING' });
    expect(await client.getOrder(created.id)).toEqual(created);

    sandbox.orders.approve(created.id);
    expect(
      (
        await client.disburseOrder(created.id, {
          invoice: { number: 'INV-1', url: undefined, issuedAt: undefined },
        })
      ).orderStatus,
    ).toBe('PAID');
    expect(sandbox.disbursements()).toMatchObject([
      { orderId: created.id, invoice: { number: 'INV-1' }, source: 'api' },
    ]);

    const other = await client.createOrder(orderInput('order-2'));
    sandbox.orders.approve(other.id);
    expect((await client.cancelOrder(other.id)).orderStatus).toBe('CANCELED');

    const availability = await client.checkAvailability({
      localId: 'user-1',
      productTypes: ['consumerBNPL'],
    });
    expect(availability.offers.map((o) => o.code)).toEqual(['sandbox-pay-in-3']);
    const credifyId = availability.credifyId!;
    expect(credifyId).toMatch(/^crf_/);

    const claims: ClaimObject = { 'org-market:loyalty': { 'org-market:tier': 'gold' } };
    await pushClaims(client, { claims, credifyId, signingKey: keys.privateKeyPem });
    expect(sandbox.claims.list(credifyId).map((c) => c.scopeName)).toEqual(['org-market:loyalty']);

    expect(await client.getSigningPublicKey('org-market')).toBe(await sandbox.publicKey());
    expect(await client.getSigningPublicKey(sandbox.entityId)).toBe(await sandbox.publicKey());
    expect(await client.introspectToken('not-a-token', 'claim_provider:read_filtered_offers')).toEqual({
      active: false,
      scope: '',
    });
    expect(sandbox.calls.count('token')).toBe(1);
  });

  it('answers unknown resources and invalid moves with the mapped codes', async () => {
    const { sandbox, client } = await setup();
    expect((await kitErrorOf(client.getOrder('ord_missing'))).code).toBe('order_not_found');
    const order = await client.createOrder(orderInput());
    expect((await kitErrorOf(client.disburseOrder(order.id, {}))).code).toBe('conflict');
    const changed = { ...orderInput(), totalAmount: { value: '600000', currency: 'VND' as const } };
    changed.orderLines = [
      { ...changed.orderLines[0]!, quantity: 4, subtotal: { value: '600000', currency: 'VND' } },
    ];
    expect((await kitErrorOf(client.createOrder(changed))).code).toBe('conflict');
    expect((await kitErrorOf(client.pushClaimTokens('crf_nobody', ['x.y.z']))).code).toBe('user_not_found');
    expect((await kitErrorOf(client.getSigningPublicKey('someone-else'))).code).toBe('not_found');
    expect(sandbox.orders.list()).toHaveLength(1);
  });

  it('shares one token request among concurrent calls', async () => {
    const { sandbox, client } = await setup();
    const order = await client.createOrder(orderInput());
    const fresh = clientFor(running!.baseUrl);
    await Promise.all(Array.from({ length: 12 }, () => fresh.getOrder(order.id)));
    expect(sandbox.calls.count('token')).toBe(2);
  });

  it('renews an expired token once on 401 and repeats the call', async () => {
    const clock = createManualClock();
    const { sandbox, baseUrl } = await setup({ clock, tokenTtlSeconds: 300 });
    // The client's clock stands still, so it believes its token is fresh; the service's moves on.
    const client = clientFor(baseUrl, { now: () => 0 });
    const order = await client.createOrder(orderInput());
    await clock.advance(301_000);
    await expect(client.getOrder(order.id)).resolves.toMatchObject({ id: order.id });
    expect(sandbox.calls.count('token')).toBe(2);
    expect(sandbox.calls.list({ operation: 'getOrder' }).map((c) => c.status)).toEqual([401, 200]);
  });

  it('renews before expiry when its own clock says so', async () => {
    const clock = createManualClock();
    const { sandbox, baseUrl } = await setup({ clock, tokenTtlSeconds: 600 });
    const client = clientFor(baseUrl, { now: () => clock.now() });
    const order = await client.createOrder(orderInput());
    await clock.advance(541_000);
    await client.getOrder(order.id);
    expect(sandbox.calls.count('token')).toBe(2);
    expect(sandbox.calls.list({ operation: 'getOrder' }).map((c) => c.status)).toEqual([200]);
  });

  it.each([
    ['unknown', 'sk_unknown_key_123'],
    ['lacking claim_provider', 'sk_read_only_key'],
  ])('refuses an API key that is %s', async (_, apiKey) => {
    const { sandbox, baseUrl } = await setup({
      organizations: [marketOrg({ apiKeys: [API_KEY, { key: 'sk_read_only_key', permissions: ['read'] }] })],
    });
    const error = await kitErrorOf(clientFor(baseUrl, { apiKey }).getOrder('x'));
    expect(error.code).toBe('upstream_rejected');
    expect(error.message).toContain('claim_provider');
    expect(sandbox.calls.list({ operation: 'token' })[0]?.status).toBe(
      apiKey === 'sk_unknown_key_123' ? 401 : 403,
    );
  });

  it('maps an injected 5xx to 502 and retries idempotent calls until the fault clears', async () => {
    const { sandbox, client } = await setup();
    const order = await client.createOrder(orderInput());
    sandbox.faults.inject({ target: 'route', operation: 'getOrder', action: 'error', times: 2 });
    await expect(client.getOrder(order.id)).resolves.toMatchObject({ id: order.id });
    expect(sandbox.calls.list({ operation: 'getOrder' }).map((c) => c.status)).toEqual([500, 500, 200]);

    sandbox.faults.inject({
      target: 'route',
      operation: 'getOrder',
      action: 'error',
      times: 10,
      status: 503,
    });
    const error = await kitErrorOf(client.getOrder(order.id));
    expect([error.code, error.status]).toEqual(['upstream_rejected', 502]);
    expect(sandbox.calls.count('getOrder')).toBe(6);
  });

  it('maps an injected timeout to 504', async () => {
    const { sandbox, baseUrl } = await setup();
    // The injected timeout never answers, so any client timeout ends in 504; it must still let the
    // healthy warm-up call through on a machine whose cores are busy (1 s did not, under load).
    const client = clientFor(baseUrl, { timeoutMs: LOADED_MACHINE_CALL_MS, retries: 0 });
    await client.introspectToken('x', 'y');
    sandbox.faults.inject({ target: 'route', operation: 'getOrder', action: 'timeout' });
    const error = await kitErrorOf(client.getOrder('anything'));
    expect([error.code, error.status]).toEqual(['upstream_timeout', 504]);
  });

  it('maps a malformed answer to upstream_rejected', async () => {
    const { sandbox, client } = await setup();
    sandbox.faults.inject({ target: 'route', operation: 'checkAvailability', action: 'malformed', times: 5 });
    const error = await kitErrorOf(client.checkAvailability({ localId: 'u', productTypes: [] }));
    expect(error.code).toBe('upstream_rejected');
    expect(error.message).toMatch(/envelope/);
    expect(sandbox.calls.count('checkAvailability')).toBe(1);
  });

  it('never retries a mutating call blindly', async () => {
    const { sandbox, baseUrl } = await setup();
    const client = clientFor(baseUrl, { retries: 5 });
    const order = await client.createOrder(orderInput());
    sandbox.orders.approve(order.id);
    sandbox.faults.inject({ target: 'route', operation: 'disburseOrder', action: 'error' });
    expect((await kitErrorOf(client.disburseOrder(order.id, {}))).status).toBe(502);
    expect(sandbox.calls.count('disburseOrder')).toBe(1);
    expect(sandbox.disbursements()).toHaveLength(0);
  });

  it('pays once when a disburse whose answer was lost is repeated with its Idempotency-Key', async () => {
    const { sandbox, baseUrl } = await setup();
    // Only the call whose answer is lost uses the impatient client: every other call must not time
    // out on a loaded machine, so they go through a patient client with the same key scheme.
    const patient = clientFor(baseUrl, { timeoutMs: 10_000 });
    const order = await patient.createOrder(orderInput());
    sandbox.orders.approve(order.id);
    sandbox.faults.inject({
      target: 'route',
      operation: 'disburseOrder',
      action: 'timeout',
      afterEffect: true,
    });
    // Its token comes from a read, which must not time out itself (150 ms did, under load), so the
    // one lost answer is the disburse's: the budget is what a healthy call needs on a busy machine.
    const impatient: ServiceClient = clientFor(baseUrl, { timeoutMs: LOADED_MACHINE_CALL_MS });
    await impatient.getOrder(order.id);
    expect((await kitErrorOf(impatient.disburseOrder(order.id, {}))).code).toBe('upstream_timeout');
    const again = await patient.disburseOrder(order.id, {});
    expect(again.orderStatus).toBe('PAID');
    expect(sandbox.disbursements()).toHaveLength(1);
    const keys = sandbox.calls.list({ operation: 'disburseOrder' }).map((c) => c.idempotencyKey);
    expect(keys).toEqual([`disburse:${order.id}`, `disburse:${order.id}`]);
    // The same key with another body is refused rather than silently answered with the old result.
    const conflict = await kitErrorOf(
      patient.disburseOrder(order.id, { invoice: { number: 'X', url: undefined, issuedAt: undefined } }),
    );
    expect(conflict.code).toBe('conflict');
  });
});

describe('connection failures', () => {
  it('a stopped standalone server → upstream_unavailable (503)', async () => {
    const server = await startSandboxServer({ port: 0, organizations: [marketOrg()] });
    const client = clientFor(server.url, { retries: 1 });
    await client.introspectToken('a', 'b');
    await server.close();
    const error = await kitErrorOf(client.getOrder('x'));
    expect([error.code, error.status]).toEqual(['upstream_unavailable', 503]);
  });

  it('a network error through msw → upstream_unavailable, retried for reads', async () => {
    const sandbox = createSandbox({ organizations: [marketOrg()] });
    let failures = 1;
    msw.use(
      http.get(`${BASE_URL}/v1/integration/bnpl-consumers/orders/:id`, () => {
        if (failures-- > 0) return HttpResponse.error();
        return undefined;
      }),
      ...createSandboxHandlers(sandbox, { baseUrl: BASE_URL }),
    );
    const client = clientFor(BASE_URL);
    const order = await client.createOrder(orderInput());
    await expect(client.getOrder(order.id)).resolves.toMatchObject({ id: order.id });
    failures = 10;
    const error = await kitErrorOf(clientFor(BASE_URL, { retries: 0 }).getOrder(order.id));
    expect(error.code).toBe('upstream_unavailable');
    sandbox.close();
  });
});

describe('the standalone server', () => {
  it('serves the admin API and refuses oversized bodies', async () => {
    const server = await startSandboxServer({ port: 0, maxBodyBytes: 1024 });
    try {
      const state = (await (await fetch(`${server.url}/sandbox/state`)).json()) as Record<string, unknown>;
      expect(state).toMatchObject({ entity_id: 'bnpl-sandbox', organizations: [{ id: 'sandbox-org' }] });
      const big = await fetch(`${server.url}/v1/token`, { method: 'POST', body: 'x'.repeat(5000) });
      expect(big.status).toBe(413);
    } finally {
      await server.close();
    }
  });
});

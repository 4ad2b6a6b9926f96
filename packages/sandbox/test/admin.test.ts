/** The admin API under /sandbox: dashboard settings, provider buttons, deliveries, faults, claims. */

import { generateKeyPair } from '@bnpl-kit/core/testing';
import { buildClaimTokens } from '@bnpl-kit/core/wire';
import { describe, expect, it } from 'vitest';
import { optionsFromConfig, type SandboxOptions } from '../src/index.js';
import { adminJson, directClient, marketOrg, orderInput, startSandbox, status } from './support.js';

function setup(options: SandboxOptions = {}) {
  const started = startSandbox(options);
  const admin = (method: string, path: string, body?: unknown, headers = {}) =>
    adminJson(started.sandbox, method, path, body, headers);
  return { ...started, admin };
}

describe('admin API', () => {
  it('lists its endpoints and shows the whole state', async () => {
    const { admin, client } = setup();
    await client.createOrder(orderInput());
    const index = await admin('GET', '/sandbox');
    expect(index.json.endpoints).toContain('POST /sandbox/orders/:id/approve');
    expect(index.json.webhook_public_key).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const state = await admin('GET', '/sandbox/state');
    expect(state.status).toBe(200);
    expect(state.json.organizations[0]).toMatchObject({
      id: 'org-market',
      integration_mode: 'basic',
      whitelisted: true,
      api_keys: [{ key: 'sk_test_market_key', permissions: ['claim_provider'] }],
    });
    expect(state.json.orders[0]).toMatchObject({ reference_id: 'order-1', order_status: 'PENDING' });
  });

  it('creates, patches, reads and deletes organisations; the signing key is shown only on request', async () => {
    const { admin, client, sandbox } = setup();
    const keys = await generateKeyPair();
    const put = await admin('PUT', '/sandbox/organizations/org-new', {
      api_keys: ['sk_new_org_key_1'],
      webhook_urls: ['https://new.example/v1/webhook'],
      offer_filtering_url: 'https://new.example/v1/offers/filter',
      basic_profile_keys: ['email', 'phone'],
      whitelisted: false,
      signing_key: keys.privateKeyPem,
    });
    expect(put.status).toBe(200);
    expect(put.json).toMatchObject({
      id: 'org-new',
      integration_mode: 'data-sharing',
      public_key: keys.publicKey,
    });
    expect(put.json).not.toHaveProperty('signing_key');
    const patched = await admin('PATCH', '/sandbox/organizations/org-new', { whitelisted: true });
    expect(patched.json).toMatchObject({ whitelisted: true, basic_profile_keys: ['email', 'phone'] });
    const secret = await admin('GET', '/sandbox/organizations/org-new/signing-key');
    expect(secret.json.signing_key).toBe(keys.privateKeyPem);
    const other = directClient(sandbox, { apiKey: 'sk_new_org_key_1' });
    await expect(other.introspectToken('x', 'y')).resolves.toMatchObject({ active: false });
    expect((await admin('DELETE', '/sandbox/organizations/org-new')).status).toBe(204);
    expect((await admin('GET', '/sandbox/organizations/org-new')).status).toBe(404);
    await expect(client.introspectToken('x', 'y')).resolves.toMatchObject({ active: false });
  });

  it('PUT on an existing organisation changes only the fields given', async () => {
    const { admin, client } = setup();
    await admin('PUT', '/sandbox/organizations/org-market', {
      webhook_urls: ['https://moved.example/v1/webhook'],
    });
    const org = (await admin('GET', '/sandbox/organizations/org-market')).json;
    expect(org).toMatchObject({
      webhook_urls: ['https://moved.example/v1/webhook'],
      api_keys: [{ key: 'sk_test_market_key' }],
    });
    await expect(client.introspectToken('x', 'y')).resolves.toMatchObject({ active: false });
  });

  it('refuses an invalid organisation with a problem document naming the field', async () => {
    const { admin } = setup();
    const bad = await admin('PUT', '/sandbox/organizations/org-x', { webhook_urls: ['ftp://nope'] });
    expect(bad.status).toBe(400);
    expect(bad.headers.get('content-type')).toBe('application/problem+json');
    expect(bad.json).toMatchObject({ code: 'validation_failed', errors: [{ path: 'webhook_urls[0]' }] });
  });

  it('drives an order with the provider buttons and lists deliveries and disbursements', async () => {
    const { admin, client, sandbox } = setup();
    const { id } = await client.createOrder(orderInput());
    expect((await admin('POST', `/sandbox/orders/${id}/approve`)).json.order_status).toBe('APPROVED');
    expect((await admin('POST', `/sandbox/orders/${id}/ready`, { via: 'status' })).json.order_status).toBe(
      'DISBURSING',
    );
    expect((await admin('POST', `/sandbox/orders/${id}/paid`)).json.order_status).toBe('PAID');
    const again = await admin('POST', `/sandbox/orders/${id}/approve`);
    expect(again.status).toBe(409);
    expect(again.json.code).toBe('invalid_transition');
    await sandbox.webhooks.idle();
    const deliveries = await admin(
      'GET',
      '/sandbox/webhooks/deliveries?event_type=BNPL_ORDER_STATUS_UPDATED',
    );
    expect(
      deliveries.json.deliveries.map((d: { payload: { order_status: string } }) => d.payload.order_status),
    ).toEqual(['APPROVED', 'DISBURSING', 'PAID']);
    expect(deliveries.json.deliveries[0].attempts[0]).toMatchObject({
      number: 1,
      outcome: 'success',
      response_status: 200,
    });
    expect((await admin('GET', '/sandbox/disbursements')).json.disbursements).toHaveLength(1);
    expect((await admin('POST', '/sandbox/orders/ord_nope/reject')).status).toBe(404);
  });

  it("lists one order's deliveries and disbursements, not the others'", async () => {
    const { admin, client, sandbox } = setup();
    const first = await client.createOrder(orderInput('order-1'));
    const second = await client.createOrder(orderInput('order-2'));
    for (const { id } of [first, second]) {
      await admin('POST', `/sandbox/orders/${id}/approve`);
      await admin('POST', `/sandbox/orders/${id}/ready`, { via: 'status' });
    }
    await admin('POST', `/sandbox/orders/${second.id}/paid`);
    await sandbox.webhooks.idle();
    const path = `/sandbox/webhooks/deliveries?event_type=BNPL_ORDER_STATUS_UPDATED&order_id=${second.id}`;
    const deliveries = (await admin('GET', path)).json.deliveries as { payload: Record<string, string> }[];
    expect(deliveries.map((d) => [d.payload.order_id, d.payload.order_status])).toEqual([
      [second.id, 'APPROVED'],
      [second.id, 'DISBURSING'],
      [second.id, 'PAID'],
    ]);
    const none = await admin('GET', '/sandbox/webhooks/deliveries?order_id=ord_nope');
    expect(none.json.deliveries).toEqual([]);
    // Only the paid order was disbursed.
    const disbursed = await admin('GET', `/sandbox/disbursements?order_id=${second.id}`);
    expect(disbursed.json.disbursements).toEqual([expect.objectContaining({ order_id: second.id })]);
    expect((await admin('GET', `/sandbox/disbursements?order_id=${first.id}`)).json.disbursements).toEqual(
      [],
    );
  });

  it('replays a delivery and emits custom events', async () => {
    const { admin, market, sandbox } = setup();
    market.answerNext(status(500));
    const emitted = await admin('POST', '/sandbox/webhooks/events', { payload: { type: 'CUSTOM', a: 1 } });
    expect(emitted.status).toBe(202);
    await sandbox.webhooks.idle();
    const id = emitted.json.deliveries[0].id as string;
    expect((await admin('GET', `/sandbox/webhooks/deliveries/${id}`)).json.status).toBe('retrying');
    const replay = await admin('POST', `/sandbox/webhooks/deliveries/${id}/replay`, {});
    expect(replay.status).toBe(202);
    await sandbox.webhooks.idle();
    expect((await admin('GET', `/sandbox/webhooks/deliveries/${replay.json.id}`)).json).toMatchObject({
      status: 'delivered',
      replay_of: id,
    });
    expect(market.received).toHaveLength(2);
  });

  it('injects, lists and clears faults', async () => {
    const { admin, client } = setup();
    const created = await admin('POST', '/sandbox/faults', {
      target: 'route',
      operation: 'createOrder',
      action: 'error',
      status: 503,
    });
    expect(created.status).toBe(201);
    await admin('POST', '/sandbox/faults', { target: 'webhook', action: 'drop', times: 2 });
    expect((await admin('GET', '/sandbox/faults')).json.faults).toHaveLength(2);
    await expect(client.createOrder(orderInput())).rejects.toMatchObject({ code: 'upstream_rejected' });
    expect((await admin('GET', '/sandbox/faults')).json.faults).toHaveLength(1);
    expect((await admin('DELETE', '/sandbox/faults')).status).toBe(204);
    expect((await admin('GET', '/sandbox/faults')).json.faults).toEqual([]);
    const bad = await admin('POST', '/sandbox/faults', {
      target: 'route',
      operation: 'nope',
      action: 'error',
    });
    expect(bad.status).toBe(400);
  });

  it('answers 200 with a refusing envelope instead of doing the operation (refused fault)', async () => {
    const { admin, client, sandbox } = setup();
    const created = await admin('POST', '/sandbox/faults', {
      target: 'route',
      operation: 'createOrder',
      action: 'refused',
    });
    expect(created.status).toBe(201);
    // A client that reads the envelope, not only the HTTP status, sees the refusal.
    await expect(client.createOrder(orderInput())).rejects.toMatchObject({ code: 'upstream_rejected' });
    const [call] = sandbox.calls.list({ operation: 'createOrder' });
    expect(call).toMatchObject({ status: 200, fault: expect.stringContaining('refused') });
    expect((await admin('GET', '/sandbox/state')).json.orders).toEqual([]);
  });

  it('answers an operation with an order_status outside the six after doing it (unknown_status fault)', async () => {
    const { admin, client } = setup();
    const created = await admin('POST', '/sandbox/faults', {
      target: 'route',
      operation: 'createOrder',
      action: 'unknown_status',
      order_status: 'ON_HOLD_FOR_REVIEW',
    });
    expect(created.status).toBe(201);
    const answered = await client.createOrder(orderInput());
    // The market sees the new status; the order itself was created, as the service holds it.
    expect(JSON.stringify(answered)).toContain('ON_HOLD_FOR_REVIEW');
    const state = await admin('GET', '/sandbox/state');
    expect(state.json.orders[0]).toMatchObject({ reference_id: 'order-1', order_status: 'PENDING' });
    // Consumed: the next answer is the service's own again.
    const again = await client.createOrder(orderInput('order-2'));
    expect(JSON.stringify(again)).not.toContain('ON_HOLD_FOR_REVIEW');
  });

  it('answers an operation as usual but late (delay fault): not before the delay has passed', async () => {
    const { admin, client, clock } = setup();
    const created = await admin('POST', '/sandbox/faults', {
      target: 'route',
      operation: 'createOrder',
      action: 'delay',
      delay_ms: 1500,
    });
    expect(created.json).toMatchObject({ action: 'delay', delayMs: 1500, remaining: 1 });
    let answered = false;
    const pending = client.createOrder(orderInput()).then((order) => {
      answered = true;
      return order;
    });
    await clock.advance(1499, () => new Promise((resolve) => setImmediate(resolve)));
    expect(answered).toBe(false);
    await clock.advance(1, () => new Promise((resolve) => setImmediate(resolve)));
    expect(await pending).toMatchObject({ referenceId: 'order-1', orderStatus: 'PENDING' });
  });

  it('fires a fault given an order_id only on calls on that order: calls on other orders pass by it', async () => {
    const { admin, client, sandbox } = setup();
    const first = await client.createOrder(orderInput());
    const second = await client.createOrder(orderInput('order-2'));
    const created = await admin('POST', '/sandbox/faults', {
      target: 'route',
      operation: 'getOrder',
      action: 'error',
      status: 503,
      order_id: second.id,
    });
    expect(created.json).toMatchObject({ operation: 'getOrder', orderId: second.id, remaining: 1 });
    // Another order's read (a worker reconciling it) neither fails nor uses the fault up.
    await expect(client.getOrder(first.id)).resolves.toMatchObject({ id: first.id });
    expect((await admin('GET', '/sandbox/faults')).json.faults).toMatchObject([{ remaining: 1 }]);
    // The order's own read meets it (the kit's client then reads once more, as it does after a 503).
    await client.getOrder(second.id).catch(() => undefined);
    const reads = sandbox.calls
      .list({ operation: 'getOrder' })
      .map((c) => [c.path.endsWith(second.id), c.fault]);
    expect(reads.slice(0, 2)).toEqual([
      [false, undefined],
      [true, expect.stringContaining('error')],
    ]);
    expect((await admin('GET', '/sandbox/faults')).json.faults).toEqual([]);
    // An operation that acts on no order has no order to match, as the README says: it never fires.
    await admin('POST', '/sandbox/faults', {
      target: 'route',
      operation: 'createOrder',
      action: 'error',
      order_id: second.id,
    });
    await expect(client.createOrder(orderInput('order-3'))).resolves.toMatchObject({
      referenceId: 'order-3',
    });
    expect((await admin('GET', '/sandbox/faults')).json.faults).toMatchObject([{ remaining: 1 }]);
  });

  it("revokes an organisation's API access tokens: the next call with one is a 401, a renewal works", async () => {
    const { admin, client, sandbox } = setup();
    await client.createOrder(orderInput());
    const revoked = await admin('DELETE', '/sandbox/organizations/org-market/access-tokens');
    expect(revoked).toMatchObject({ status: 200, json: { revoked: 1 } });
    // The kit's client renews once on the 401 and repeats the call (WIRE §6, R-SVC-04).
    await client.createOrder(orderInput('order-2'));
    const calls = sandbox.calls.list({ kind: 'service' }).map((c) => `${c.operation} ${c.status}`);
    expect(calls).toEqual([
      'token 200',
      'createOrder 200',
      'createOrder 401',
      'token 200',
      'createOrder 200',
    ]);
    expect((await admin('DELETE', '/sandbox/organizations/no-such-org/access-tokens')).status).toBe(404);
  });

  it('shows pushed claim tokens and checks claims against them', async () => {
    const keys = await generateKeyPair();
    const { admin, client } = setup({ organizations: [marketOrg({ signingKey: keys.privateKeyPem })] });
    const { credifyId } = await client.checkAvailability({ localId: 'u', productTypes: [] });
    const claims = {
      'org-market:loyalty': { 'org-market:tier': 'gold', 'org-market:loyalty:commitment': 'c'.repeat(43) },
    };
    const tokens = await buildClaimTokens({
      claims,
      organizationId: 'org-market',
      credifyId: credifyId!,
      signingKey: keys.seed,
    });
    await client.pushClaimTokens(credifyId!, [tokens[0]!.token]);
    const shown = await admin('GET', `/sandbox/claims/${credifyId}`);
    expect(shown.json.claim_tokens).toMatchObject([
      { scope_name: 'org-market:loyalty', scope_hash: tokens[0]!.scopeHash },
    ]);
    const check = await admin('POST', `/sandbox/claims/${credifyId}/check`, {
      scope_name: 'org-market:loyalty',
      claims: claims['org-market:loyalty'],
    });
    expect(check.json).toEqual({ matches: true });
  });

  it('records transactions and disputes', async () => {
    const { admin, market, sandbox, client } = setup();
    const { credifyId } = await client.checkAvailability({ localId: 'u', productTypes: [] });
    const t = await admin('POST', '/sandbox/transactions', {
      credify_id: credifyId,
      offer_code: 'sandbox-pay-in-3',
      transaction_status: 'PENDING',
    });
    await admin('POST', `/sandbox/transactions/${t.json.id}/dispute`, { dispute_status: 'RESOLVED' });
    await sandbox.webhooks.idle();
    expect(market.payloads().map((p) => p.type)).toEqual([
      'OFFER_TRANSACTION_STATUS_UPDATED',
      'OFFER_TRANSACTION_DISPUTE_STATUS_UPDATED',
    ]);
    expect((await admin('GET', '/sandbox/transactions')).json.transactions[0]).toMatchObject({
      dispute_status: 'RESOLVED',
    });
  });

  it('shows records in snake_case, a missing optional field as null', async () => {
    const { admin, client } = setup();
    const { credifyId } = await client.checkAvailability({ localId: 'u', productTypes: [] });
    const t = await admin('POST', '/sandbox/transactions', {
      credify_id: credifyId,
      offer_code: 'sandbox-pay-in-3',
      transaction_status: 'PENDING',
    });
    expect(t.json).toEqual({
      id: expect.any(String),
      credify_id: credifyId,
      order_id: null,
      offer_code: 'sandbox-pay-in-3',
      transaction_status: 'PENDING',
      dispute_status: null,
      updated_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
    });
    expect((await admin('GET', '/sandbox/users')).json.users).toEqual([
      {
        credify_id: credifyId,
        organization_id: 'org-market',
        local_id: 'u',
        phone_number: null,
        country_code: null,
        created_at: expect.stringMatching(/^\d{4}-/),
      },
    ]);
    const call = (await admin('GET', '/sandbox/calls')).json.calls[0];
    expect(call).toEqual({
      id: 1,
      at: expect.stringMatching(/^\d{4}-/),
      kind: 'service',
      operation: 'token',
      method: 'POST',
      path: '/v1/token',
      query: '',
      status: 200,
      idempotency_key: null,
      had_api_key: true,
      had_bearer: false,
      body: null,
      fault: null,
      response_body: null,
    });
  });

  it('sets the auto scenario and lists recorded calls without credentials', async () => {
    const { admin, client, sandbox } = setup();
    expect((await admin('PUT', '/sandbox/auto', { approve_after_ms: 100 })).json).toMatchObject({
      approve_after_ms: 100,
    });
    await client.createOrder(orderInput());
    await sandbox.tick(100);
    expect(sandbox.orders.list()[0]?.status).toBe('APPROVED');
    const calls = (await admin('GET', '/sandbox/calls')).json.calls as Record<string, unknown>[];
    const token = calls.find((c) => c.operation === 'token')!;
    expect(token).toMatchObject({ had_api_key: true, status: 200 });
    expect(JSON.stringify(calls)).not.toContain('sk_test_market_key');
  });

  it("keeps the service's reason with a refused call, for certification reports", async () => {
    const { admin, client } = setup();
    await client.getOrder('ord_missing').catch(() => undefined);
    const calls = (await admin('GET', '/sandbox/calls')).json.calls as Record<string, unknown>[];
    const refused = calls.find((c) => c.operation === 'getOrder');
    expect(refused).toMatchObject({ status: 404 });
    expect(String(refused?.response_body)).toContain('No order ord_missing');
    expect(calls.find((c) => c.operation === 'token')?.response_body).toBeNull();
  });

  it('lists only the calls after an id, or only the most recent ones; a malformed bound is a 400', async () => {
    const { admin, client } = setup();
    await client.createOrder(orderInput('order-1'));
    await client.createOrder(orderInput('order-2'));
    const all = (await admin('GET', '/sandbox/calls')).json.calls as { id: number; path: string }[];
    const afterFirst = (await admin('GET', `/sandbox/calls?after=${all[0]!.id}`)).json.calls as {
      id: number;
    }[];
    // Every later call, the first listing included (a call is recorded once answered).
    const lastId = all.at(-1)!.id;
    expect(afterFirst.map((c) => c.id)).toEqual([...all.slice(1).map((c) => c.id), lastId + 1]);
    const newest = (await admin('GET', '/sandbox/calls?limit=1')).json.calls as {
      id: number;
      path: string;
    }[];
    expect(newest).toEqual([expect.objectContaining({ path: '/sandbox/calls', id: lastId + 2 })]);
    const between = (await admin('GET', `/sandbox/calls?after=${all[0]!.id}&limit=2`)).json.calls as {
      id: number;
    }[];
    expect(between.map((c) => c.id)).toEqual([lastId + 2, lastId + 3]);
    expect((await admin('GET', '/sandbox/calls?after=999999')).json.calls).toEqual([]);
    for (const bad of ['after=-1', 'after=x', 'limit=1.5', 'limit=']) {
      expect((await admin('GET', `/sandbox/calls?${bad}`)).status, bad).toBe(400);
    }
  });

  it('lists the orders of one reference', async () => {
    const { admin, client } = setup();
    await client.createOrder(orderInput('order-1'));
    await client.createOrder(orderInput('order-2'));
    const one = (await admin('GET', '/sandbox/orders?reference_id=order-2')).json.orders as unknown[];
    expect(one).toEqual([expect.objectContaining({ reference_id: 'order-2' })]);
    expect((await admin('GET', '/sandbox/orders?reference_id=order-3')).json.orders).toEqual([]);
    expect((await admin('GET', '/sandbox/orders')).json.orders).toHaveLength(2);
  });

  it('issues a token as the service sends with an offer filtering call (active for that scope)', async () => {
    const { admin, sandbox: s } = setup();
    const issued = await admin('POST', '/sandbox/organizations/org-market/offer-filter-token', {});
    expect(issued.status).toBe(201);
    const token = String(issued.json.access_token);
    const record = s.state.tokens.get(token);
    expect(record).toMatchObject({
      organizationId: 'org-market',
      scopes: ['claim_provider:read_filtered_offers'],
    });
    expect((await admin('POST', '/sandbox/organizations/org-nobody/offer-filter-token', {})).status).toBe(
      404,
    );
  });

  it('answers unknown routes and wrong methods with problems', async () => {
    const { admin } = setup();
    expect((await admin('GET', '/sandbox/nothing')).status).toBe(404);
    const refused = await admin('DELETE', '/sandbox/state');
    expect([refused.status, refused.headers.get('allow')]).toEqual([405, 'GET']);
    expect((await admin('GET', '/sandbox/nothing')).status).toBe(404);
  });

  it('decodes path parameters and reads a trailing slash as none', async () => {
    const { admin } = setup();
    const claims = await admin('GET', '/sandbox/claims/a%20b%2Fc');
    expect([claims.status, claims.json.credify_id]).toEqual([200, 'a b/c']);
    const slashed = await admin('GET', '/sandbox/claims/a%20b%2Fc/');
    expect([slashed.status, slashed.json.credify_id]).toEqual([200, 'a b/c']);
    expect((await admin('GET', '/sandbox/organizations/')).json.organizations).toHaveLength(1);
  });

  it('requires the admin token when one is configured', async () => {
    const { admin } = setup({ adminToken: 'admin-secret-1' });
    const refused = await admin('GET', '/sandbox/state');
    expect(refused.status).toBe(401);
    expect(refused.json.code).toBe('unauthenticated');
    const allowed = await admin('GET', '/sandbox/state', undefined, {
      authorization: 'Bearer admin-secret-1',
    });
    expect(allowed.status).toBe(200);
  });
});

describe('service routes', () => {
  it('answer unknown paths and wrong methods in the envelope', async () => {
    const { sandbox } = setup();
    const missing = await sandbox.handle(new Request('https://x.test/v1/nothing'));
    expect([missing.status, await missing.json()]).toEqual([
      404,
      { success: false, errors: [{ code: 'NOT_FOUND', message: 'No route /v1/nothing' }] },
    ]);
    const wrongMethod = await sandbox.handle(new Request('https://x.test/v1/token'));
    expect([wrongMethod.status, wrongMethod.headers.get('allow')]).toEqual([405, 'POST']);
    const trailingSlash = await sandbox.handle(new Request('https://x.test/v1/token/', { method: 'POST' }));
    expect(trailingSlash.status).toBe(404);
  });

  it('record every call once, with its kind and operation', async () => {
    const { sandbox, client } = setup();
    await client.introspectToken('a', 'b');
    await sandbox.handle(new Request('https://x.test/v1/nothing'));
    await sandbox.handle(new Request('https://x.test/sandbox/orders'));
    await sandbox.handle(new Request('https://x.test/pages/nothing'));
    await sandbox.handle(new Request('https://x.test/sandbox/console'));
    expect(sandbox.calls.list().map((c) => [c.kind, c.operation ?? null, c.status])).toEqual([
      ['service', 'token', 200],
      ['service', 'introspectToken', 200],
      ['unknown', null, 404],
      ['admin', null, 200],
      ['page', null, 404],
    ]);
  });

  it('refuse a missing or invalid bearer token and an invalid body', async () => {
    const { sandbox, client } = setup();
    const orders = 'https://x.test/v1/integration/bnpl-consumers/orders';
    const anonymous = await sandbox.handle(new Request(`${orders}/x`));
    expect(anonymous.status).toBe(401);
    await client.introspectToken('a', 'b');
    const token = [...sandbox.state.tokens.values()][0]!.value;
    const invalid = await sandbox.handle(
      new Request(orders, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}` },
        body: '{"reference_id":1}',
      }),
    );
    expect(invalid.status).toBe(400);
    expect(((await invalid.json()) as { errors: { code: string }[] }).errors[0]?.code).toBe(
      'VALIDATION_FAILED',
    );
  });
});

describe('config file', () => {
  it('turns snake_case JSON into options', () => {
    const options = optionsFromConfig({
      organizations: [
        { id: 'org-1', api_keys: ['sk_config_key_1'], webhook_urls: ['http://localhost:3000/v1/webhook'] },
      ],
      webhooks: { time_scale: 0.01 },
      auto: { approve_after_ms: 2000 },
      readiness_via: 'status',
    });
    expect(options).toMatchObject({
      organizations: [
        { id: 'org-1', apiKeys: ['sk_config_key_1'], webhookUrls: ['http://localhost:3000/v1/webhook'] },
      ],
      webhooks: { timeScale: 0.01 },
      auto: { approveAfterMs: 2000 },
      readinessVia: 'status',
    });
    expect(() => optionsFromConfig({ organizations: [{ id: 'a:b' }] })).toThrow(/organizations\[0\]\.id/);
  });
});

/**
 * ONE behaviour suite, run for every framework adapter (contract-tests/test/adapter-behaviour.test.ts,
 * in this process) and every runtime (tools/runtimes/test/behaviour.test.ts: Bun, Deno, workerd,
 * markets hosted in the runtime and inspected over HTTP), against real listening servers on
 * ephemeral ports, with the sandbox playing the BNPL service. Any difference between targets shows
 * up here as a failure of one row of `describe.each`.
 */
import { once } from 'node:events';
import { connect } from 'node:net';
import { createServiceClient, type KnownWebhookEvent } from '@bnpl-kit/core';
import { generateKeyPair, signWebhook, wireOrder, wireOrderLine } from '@bnpl-kit/core/testing';
import {
  createSandbox,
  createSandboxHandlers,
  DEFAULT_SANDBOX_BASE_URL,
  type Sandbox,
  type SandboxServer,
  startSandboxServer,
} from '@bnpl-kit/sandbox';
import { setupServer } from 'msw/node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { StartedServer, StartOptions } from '../../src/adapter-server.js';
import vectors from '../../src/fixtures/webhook-and-claims.json' with { type: 'json' };
import type { BehaviourMarketSpec } from '../../src/testing/behaviour-market.js';

/** A market of `spec` served by the target, and what the suite inspects of it. */
export interface HostedMarket extends StartedServer {
  webhookUrl: string;
  maxBodyBytes: number;
  orderStatus(id: string): Promise<string | undefined>;
  /** The events the market's webhook hook received, in order. */
  events(): Promise<KnownWebhookEvent[]>;
  commitments(localId: string): Promise<Record<string, string> | undefined>;
  /** Moves a replay market's clock. */
  setNow(now: number): Promise<void>;
  /**
   * Watches the next request sent to `url` (the kit's mount): `seen` when it reached the market,
   * `answered` with the status the market answered it with.
   */
  watchNext(): Promise<{ url: string; seen: Promise<void>; answered: Promise<number> }>;
  /** Another server of the target's framework in front of the same market (a global parser). */
  alsoServe?(options: StartOptions): Promise<StartedServer>;
}

export interface BehaviourTarget {
  /** `frameworkName`, `<frameworkName>-<platform>`, or the runtime's name. */
  name: string;
  frameworkName: string;
  platform?: string;
  /** See `AdapterEntry.rawWhateverTheParser`. */
  rawWhateverTheParser?: boolean;
  /**
   * Markets hosted outside this process (a runtime): they reach the sandbox over HTTP, not msw.
   * Without `alsoServe` (no framework, so no global JSON parser can stand before the handler),
   * the parser tests do not apply.
   */
  remote?: boolean;
  host(spec: BehaviourMarketSpec, options: StartOptions): Promise<HostedMarket>;
}

const API_TOKEN = 'market-systems-token';
const USER_TOKENS: Record<string, string> = { 'session-u1': 'u1', 'session-u2': 'u2' };
const MOUNT = '/bnpl';

const sandboxKeys = await generateKeyPair();
const appKeys = await generateKeyPair();

/** Core's order fixture under `referenceId`, with `quantity` rice cookers (2 by default). */
function orderBody(referenceId: string, quantity = 2) {
  const subtotal = { value: String(150_000 * quantity), currency: 'VND' };
  return wireOrder({
    reference_id: referenceId,
    total_amount: subtotal,
    order_lines: [wireOrderLine({ quantity, subtotal })],
  });
}

interface Setup {
  orgId: string;
  hosted: HostedMarket;
  servers: StartedServer[];
  serviceUrl: string;
}

export function describeAdapterBehaviour(targets: readonly BehaviourTarget[]): void {
  // The sandbox delivers webhooks to `https://<target>.market.test/...`; this table sends them to
  // the target's real server (the URL stays the registered one, so the signature does too).
  const hosts = new Map<string, string>();
  let sandbox: Sandbox;
  let sandboxServer: SandboxServer | undefined;
  let msw: ReturnType<typeof setupServer>;
  const unhandled: unknown[] = [];
  const onUnhandled = (reason: unknown) => unhandled.push(reason);

  beforeAll(async () => {
    sandbox = createSandbox({
      signingKey: sandboxKeys.privateKeyPem,
      organizations: [],
      fetch: (input, init) => {
        const url = new URL(input instanceof Request ? input.url : String(input));
        const base = hosts.get(url.host);
        return fetch(base ? `${base}${url.pathname}${url.search}` : url, init);
      },
    });
    msw = setupServer(...createSandboxHandlers(sandbox));
    msw.listen({ onUnhandledRequest: 'bypass' });
    if (targets.some((t) => t.remote)) sandboxServer = await startSandboxServer({ port: 0, sandbox });
    process.on('unhandledRejection', onUnhandled);
  });
  afterAll(async () => {
    msw.close();
    await sandboxServer?.close();
    sandbox.close();
    process.off('unhandledRejection', onUnhandled);
    expect(unhandled).toEqual([]);
  });

  describe.each(targets)('$name', (adapter) => {
    const s = {} as Setup;
    const url = (path: string) => `${s.hosted.url}${path}`;
    const systems = { authorization: `Bearer ${API_TOKEN}`, 'content-type': 'application/json' };
    const host = async (
      spec: Omit<BehaviourMarketSpec, 'serviceUrl' | 'apiToken' | 'userTokens'>,
      mountPath: string,
    ) => {
      const hosted = await adapter.host(
        { ...spec, serviceUrl: s.serviceUrl, apiToken: API_TOKEN, userTokens: USER_TOKENS },
        { mountPath },
      );
      s.servers.push(hosted);
      return hosted;
    };
    // The hosted market closes the servers it added.
    const alsoServe = (options: StartOptions) => s.hosted.alsoServe!(options);

    const statusOf = (id: string) => s.hosted.orderStatus(id);
    const signed = (body: unknown, options: { eventId?: string } = {}) =>
      signWebhook({
        url: s.hosted.webhookUrl,
        body: body as object,
        signingKey: sandboxKeys.privateKeyPem,
        ...(options.eventId ? { eventId: options.eventId } : {}),
      });
    const deliver = async (target: string, body: unknown, options: { eventId?: string } = {}) => {
      const webhook = await signed(body, options);
      return fetch(target, { method: 'POST', headers: webhook.headers, body: webhook.body as BodyInit });
    };
    const createOrder = async (referenceId: string) => {
      const response = await fetch(url('/v1/orders'), {
        method: 'POST',
        headers: systems,
        body: JSON.stringify(orderBody(referenceId)),
      });
      expect(response.status).toBe(201);
      return (await response.json()).id as string;
    };

    beforeAll(async () => {
      s.orgId = `org-${adapter.name}`;
      s.servers = [];
      s.serviceUrl = adapter.remote ? sandboxServer!.url : DEFAULT_SANDBOX_BASE_URL;
      const hostname = `${adapter.name}.market.test`;
      sandbox.organizations.upsert({
        id: s.orgId,
        apiKeys: [`${s.orgId}-api-key`],
        signingKey: appKeys.privateKeyPem,
        webhookUrls: [`https://${hostname}${MOUNT}/v1/webhook`],
        basicProfileKeys: ['phone'],
        approvedOffers: [
          {
            code: 'GOLD',
            conditions: [{ kind: 'EQUALITY_CONDITION', claim: `${s.orgId}:tier`, value: 'gold' }],
            required_custom_scopes: [[`${s.orgId}:loyalty`]],
          },
          {
            code: 'PLATINUM',
            conditions: [{ kind: 'EQUALITY_CONDITION', claim: `${s.orgId}:tier`, value: 'platinum' }],
            required_custom_scopes: [[`${s.orgId}:loyalty`]],
          },
        ],
      });
      s.hosted = await host(
        {
          orgId: s.orgId,
          publicBaseUrl: `https://${hostname}${MOUNT}`,
          appSigningKey: appKeys.privateKeyPem,
        },
        MOUNT,
      );
      // The registered URL's path is the mount: what the target serves in front of it replaces the host.
      hosts.set(hostname, s.hosted.url.slice(0, -MOUNT.length));
      sandbox.organizations.update(s.orgId, { offerFilteringUrl: url('/v1/offers/filter') });
    });
    afterAll(async () => {
      await Promise.all(s.servers.map((server) => server.close()));
    });

    it(`reports its framework name (${adapter.frameworkName})`, () => {
      expect(adapter.name).toBe(
        adapter.platform ? `${adapter.frameworkName}-${adapter.platform}` : adapter.frameworkName,
      );
    });

    describe('mounting and routing', () => {
      it("lets the app's own routes through, at the root and under the mount", async () => {
        expect(await (await fetch(`${s.hosted.origin}/health`)).text()).toBe('ok');
        expect(await (await fetch(url('/own'))).text()).toBe('own');
      });

      it('answers an unknown kit path with a 404 problem and a wrong method with 405 + Allow', async () => {
        const missing = await fetch(url('/v1/nope'));
        expect(missing.status).toBe(404);
        expect(missing.headers.get('content-type')).toBe('application/problem+json');
        const wrong = await fetch(url('/v1/webhook'));
        expect(wrong.status).toBe(405);
        expect(wrong.headers.get('allow')).toBe('POST');
      });

      it('echoes X-Request-Id', async () => {
        const response = await fetch(url('/v1/demo-user'), { headers: { 'x-request-id': 'abc-123' } });
        expect(response.status).toBe(200);
        expect(response.headers.get('x-request-id')).toBe('abc-123');
      });
    });

    describe('orders', () => {
      it('creates an order at the service (201), replays it (200), refuses other content (409)', async () => {
        const body = JSON.stringify(orderBody('ref-create'));
        const created = await fetch(url('/v1/orders'), { method: 'POST', headers: systems, body });
        expect(created.status).toBe(201);
        const record = await created.json();
        expect(record).toMatchObject({
          reference_id: 'ref-create',
          totalAmount: { value: '300000', currency: 'VND' },
          status: 'PENDING',
        });
        expect(sandbox.orders.get(record.id)).toMatchObject({ referenceId: 'ref-create' });
        const replay = await fetch(url('/v1/orders'), { method: 'POST', headers: systems, body });
        expect(replay.status).toBe(200);
        expect((await replay.json()).id).toBe(record.id);
        const other = await fetch(url('/v1/orders'), {
          method: 'POST',
          headers: systems,
          body: JSON.stringify(orderBody('ref-create', 3)),
        });
        expect(other.status).toBe(409);
        expect((await other.json()).code).toBe('idempotency_conflict');
      });

      it('refuses every market-systems endpoint without valid credentials (401)', async () => {
        const id = await createOrder('ref-auth');
        const attempts: [string, RequestInit][] = [
          ['/v1/orders', { method: 'POST', body: JSON.stringify(orderBody('ref-x')) }],
          [`/v1/orders/service/${id}`, {}],
          [`/v1/orders/${id}/cancel`, { method: 'POST' }],
          [`/v1/orders/${id}/disburse`, { method: 'POST' }],
        ];
        for (const [path, init] of attempts) {
          for (const authorization of [undefined, 'Bearer wrong', `Basic ${API_TOKEN}`]) {
            const headers: Record<string, string> = { 'content-type': 'application/json' };
            if (authorization) headers.authorization = authorization;
            const response = await fetch(url(path), { ...init, headers });
            expect(response.status, `${path} ${authorization}`).toBe(401);
            expect((await response.json()).code).toBe('unauthenticated');
          }
        }
      });

      it('refuses a wrong content type (415), invalid JSON (400) and an invalid order (400 with paths)', async () => {
        const text = await fetch(url('/v1/orders'), {
          method: 'POST',
          headers: { ...systems, 'content-type': 'text/plain' },
          body: JSON.stringify(orderBody('r')),
        });
        expect(text.status).toBe(415);
        const broken = await fetch(url('/v1/orders'), {
          method: 'POST',
          headers: systems,
          body: '{"reference_id":',
        });
        expect(broken.status).toBe(400);
        expect((await broken.json()).code).toBe('invalid_json');
        const invalid = await fetch(url('/v1/orders'), {
          method: 'POST',
          headers: systems,
          body: JSON.stringify({ ...orderBody('r'), total_amount: { value: '1', currency: 'VND' } }),
        });
        expect(invalid.status).toBe(400);
        expect(await invalid.json()).toMatchObject({
          code: 'validation_failed',
          errors: [{ path: 'total_amount.value' }],
        });
      });

      it('follows the provider: webhook delivered by the sandbox, status reconciled, disbursed', async () => {
        const id = await createOrder('ref-flow');
        expect(
          (await fetch(url(`/v1/orders/${id}/disburse`), { method: 'POST', headers: systems })).status,
        ).toBe(409);
        sandbox.orders.approve(id);
        await sandbox.webhooks.idle();
        expect(await statusOf(id)).toBe('APPROVED');
        expect(await s.hosted.events()).toContainEqual({
          type: 'BNPL_ORDER_STATUS_UPDATED',
          orderId: id,
          orderStatus: 'APPROVED',
        });
        const status = await fetch(url(`/v1/orders/service/${id}`), { headers: systems });
        expect(await status.json()).toMatchObject({ id, reference_id: 'ref-flow', status: 'APPROVED' });
        const disbursed = await fetch(url(`/v1/orders/${id}/disburse`), {
          method: 'POST',
          headers: systems,
          body: JSON.stringify({ invoice: { number: 'INV-7' } }),
        });
        expect(disbursed.status).toBe(202);
        expect(await disbursed.json()).toEqual({ id, status: 'PAID' });
        expect(sandbox.disbursements().filter((d) => d.orderId === id)).toHaveLength(1);
      });

      it('cancels only an APPROVED order (409 otherwise), with an idempotency key', async () => {
        const id = await createOrder('ref-cancel');
        const early = await fetch(url(`/v1/orders/${id}/cancel`), { method: 'POST', headers: systems });
        expect(early.status).toBe(409);
        sandbox.orders.approve(id);
        await sandbox.webhooks.idle();
        const response = await fetch(url(`/v1/orders/${id}/cancel`), { method: 'POST', headers: systems });
        expect(response.status).toBe(202);
        expect(await response.json()).toEqual({ id, status: 'CANCELED' });
        const call = sandbox.calls.list({ operation: 'revertOrder' }).find((c) => c.path.includes(id));
        expect(call?.idempotencyKey).toBe(`revert:${id}`);
      });

      it('redirects the browser to getBNPLCallback (302), 404 for an unknown order', async () => {
        const id = await createOrder('ref-redirect');
        const response = await fetch(url(`/v1/bnpl/orders/${id}/redirect`), { redirect: 'manual' });
        expect(response.status).toBe(302);
        expect(response.headers.get('location')).toBe(`https://shop.example.com/bnpl/done/${id}`);
        expect((await fetch(url('/v1/bnpl/orders/nope/redirect'), { redirect: 'manual' })).status).toBe(404);
      });
    });

    describe('claims and offers', () => {
      it('pushes claims for the signed-in user; the sandbox checks the tokens against the kept commitments', async () => {
        const availability = await createServiceClient({
          baseUrl: DEFAULT_SANDBOX_BASE_URL,
          apiKey: `${s.orgId}-api-key`,
        }).checkAvailability({ localId: 'u1', productTypes: ['consumerBNPL'] });
        const credifyId = availability.credifyId!;
        // The sandbox ranked the approved offers through this adapter's offer filtering endpoint.
        expect(availability.offers.map((o) => o.code)).toEqual(['GOLD']);

        const headers = { authorization: 'Bearer session-u1', 'content-type': 'application/json' };
        const response = await fetch(url('/v1/push-claims'), {
          method: 'POST',
          headers,
          body: JSON.stringify({ id: 'u1', credify_id: credifyId }),
        });
        expect(response.status).toBe(200);
        expect(await response.json()).toEqual({ credify_id: credifyId });
        const kept = (await s.hosted.commitments('u1'))!;
        expect(sandbox.claims.list(credifyId)).toHaveLength(2);
        expect(
          await sandbox.claims.matches(credifyId, 'phone', {
            phone_number: '+84901234567',
            phone_commitment: kept.phone!,
          }),
        ).toBe(true);
      });

      it('refuses push-claims without a session (401) and for another user (403)', async () => {
        const body = JSON.stringify({ id: 'u1', credify_id: 'crf_x' });
        const anonymous = await fetch(url('/v1/push-claims'), {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body,
        });
        expect(anonymous.status).toBe(401);
        const systemsToken = await fetch(url('/v1/push-claims'), { method: 'POST', headers: systems, body });
        expect(systemsToken.status).toBe(401);
        const other = await fetch(url('/v1/push-claims'), {
          method: 'POST',
          headers: { authorization: 'Bearer session-u2', 'content-type': 'application/json' },
          body,
        });
        expect(other.status).toBe(403);
        const invalid = await fetch(url('/v1/push-claims'), {
          method: 'POST',
          headers: { authorization: 'Bearer session-u1', 'content-type': 'application/json' },
          body: JSON.stringify({ id: 'u1' }),
        });
        expect(invalid.status).toBe(400);
      });

      it('refuses offer filtering without a service-issued token (401)', async () => {
        const body = JSON.stringify({ credify_id: 'c', offers: [] });
        for (const authorization of [undefined, 'Bearer forged-token']) {
          const headers: Record<string, string> = { 'content-type': 'application/json' };
          if (authorization) headers.authorization = authorization;
          const response = await fetch(url('/v1/offers/filter'), { method: 'POST', headers, body });
          expect(response.status).toBe(401);
        }
      });
    });

    describe('webhooks', () => {
      it('accepts a signed event, and a pretty-printed signed body as the bytes it is', async () => {
        const id = await createOrder('ref-hook');
        const compact = await deliver(url('/v1/webhook'), {
          type: 'BNPL_ORDER_STATUS_UPDATED',
          order_id: id,
          order_status: 'APPROVED',
        });
        expect(compact.status).toBe(200);
        expect(await compact.json()).toEqual({ received: true });
        const pretty = JSON.stringify(
          { type: 'BNPL_ORDER_STATUS_UPDATED', order_id: id, order_status: 'CANCELED' },
          null,
          2,
        );
        const response = await deliver(url('/v1/webhook'), pretty);
        expect(response.status).toBe(200);
        expect(await statusOf(id)).toBe('CANCELED');
      });

      it('acknowledges a duplicate once and keeps the latest status across out-of-order deliveries', async () => {
        const id = await createOrder('ref-order');
        const paid = { type: 'BNPL_ORDER_STATUS_UPDATED', order_id: id, order_status: 'PAID' };
        expect(await (await deliver(url('/v1/webhook'), paid, { eventId: `evt-${id}-paid` })).json()).toEqual(
          {
            received: true,
          },
        );
        expect(await (await deliver(url('/v1/webhook'), paid, { eventId: `evt-${id}-paid` })).json()).toEqual(
          {
            received: true,
            duplicate: true,
          },
        );
        const late = { type: 'BNPL_ORDER_STATUS_UPDATED', order_id: id, order_status: 'APPROVED' };
        expect((await deliver(url('/v1/webhook'), late)).status).toBe(200);
        expect(await statusOf(id)).toBe('PAID');
      });

      it('refuses bad signatures with specific 401 codes', async () => {
        // One character of the signature changed (always to a different one).
        const tamper = (sig: string) => `${sig.slice(0, 10)}${sig[10] === 'B' ? 'C' : 'B'}${sig.slice(11)}`;
        const body = { type: 'BNPL_ORDER_STATUS_UPDATED', order_id: 'x', order_status: 'APPROVED' };
        const good = await signed(body);
        const cases: [Record<string, string>, BodyInit, string][] = [
          [
            { ...good.headers, Signature: tamper(good.headers.Signature!) },
            good.body as BodyInit,
            'signature_invalid',
          ],
          [
            good.headers,
            JSON.stringify(JSON.parse(new TextDecoder().decode(good.body)), null, 1),
            'signature_invalid',
          ],
          [
            { ...good.headers, 'X-Signature-Algorithm': 'HS256' },
            good.body as BodyInit,
            'signature_unsupported_algorithm',
          ],
          [
            { ...good.headers, 'X-Event-Timestamp': '2020-01-01T00:00:00Z' },
            good.body as BodyInit,
            'timestamp_out_of_window',
          ],
          [{ 'Content-Type': 'application/json' }, good.body as BodyInit, 'signature_missing_header'],
        ];
        for (const [headers, body, code] of cases) {
          const response = await fetch(url('/v1/webhook'), { method: 'POST', headers, body });
          expect(response.status, code).toBe(401);
          expect((await response.json()).code).toBe(code);
        }
      });

      it('answers 400 for a signed body that is not an event, and acknowledges an unknown type', async () => {
        expect((await deliver(url('/v1/webhook'), '{"type":')).status).toBe(400);
        expect((await deliver(url('/v1/webhook'), { type: 'BNPL_ORDER_STATUS_UPDATED' })).status).toBe(400);
        expect((await deliver(url('/v1/webhook'), { type: 'BRAND_NEW_EVENT', x: 1 })).status).toBe(200);
      });

      it('replays the valid shared vectors, re-signed for this server’s registered URL', async () => {
        for (const vector of vectors.webhook_cases.filter((v) => v.expect === 'valid')) {
          const body = Buffer.from(vector.body_base64, 'base64');
          const response = await deliver(url('/v1/webhook'), new Uint8Array(body));
          expect(response.status, vector.name).toBe(200);
        }
      });

      it('replays every shared vector as it is (market.example.com, injected clock)', async () => {
        const replay = await host(
          {
            orgId: s.orgId,
            publicBaseUrl: 'https://market.example.com',
            replay: { servicePublicKey: vectors.public_key, now: 0 },
          },
          '',
        );
        const server = replay;
        for (const vector of vectors.webhook_cases) {
          await replay.setNow(Date.parse(vector.now));
          const headers = Object.entries(vector.headers).filter(
            (e): e is [string, string] => typeof e[1] === 'string',
          );
          const response = await fetch(`${server.url}/v1/webhook`, {
            method: 'POST',
            headers,
            body: Buffer.from(vector.body_base64, 'base64'),
          });
          const problem = await response.json();
          if (vector.expect === 'valid') expect(response.status, vector.name).toBe(200);
          else {
            expect(response.status, vector.name).toBe(401);
            const expected = { signature: 'signature_invalid', timestamp: 'timestamp_out_of_window' }[
              vector.reason as string
            ];
            if (expected) expect(problem.code, vector.name).toBe(expected);
            else expect(problem.code, vector.name).toMatch(/^signature_(missing|malformed|unsupported)/);
          }
        }
        expect(await replay.events()).toHaveLength(
          vectors.webhook_cases.filter((v) => v.expect === 'valid').length,
        );
      });
    });

    // A runtime serves the fetch handler with no framework, so no app parser can stand before it.
    if (adapter.remote) return describeTransport();
    describe('a global JSON body parser mounted before the router', () => {
      it('works when the parser keeps the raw bytes', async () => {
        const server = await alsoServe({ mountPath: MOUNT, globalJsonParser: 'keeps-raw' });
        const id = await createOrder('ref-parser-raw');
        const event = { type: 'BNPL_ORDER_STATUS_UPDATED', order_id: id, order_status: 'APPROVED' };
        const pretty = JSON.stringify(event, null, 3);
        const response = await deliver(`${server.url}/v1/webhook`, pretty);
        expect(response.status).toBe(200);
        expect(await statusOf(id)).toBe('APPROVED');
        const order = await fetch(`${server.url}/v1/orders`, {
          method: 'POST',
          headers: systems,
          body: JSON.stringify(orderBody('ref-parser-raw-2')),
        });
        expect(order.status).toBe(201);
      });

      const keptAnyway = adapter.rawWhateverTheParser === true;
      it(`${keptAnyway ? 'still verifies the webhook' : 'fails loudly at the webhook (payload_not_raw, with how to mount)'} when it keeps none`, async () => {
        const server = await alsoServe({ mountPath: MOUNT, globalJsonParser: 'discards-raw' });
        const response = await deliver(`${server.url}/v1/webhook`, { type: 'BRAND_NEW_EVENT' });
        const problem = await response.json();
        if (keptAnyway) {
          // The parser never reaches the kit's requests: the exact bytes arrive.
          expect({ status: response.status, body: problem }).toEqual({
            status: 200,
            body: { received: true },
          });
        } else {
          expect(response.status).toBe(500);
          expect(problem.code).toBe('payload_not_raw');
          expect(problem.detail.toLowerCase()).toContain(adapter.frameworkName);
          expect(problem.detail).toContain('createBnplRouter');
        }
        // Orders carry no signature: a re-serialized body is fine there.
        const order = await fetch(`${server.url}/v1/orders`, {
          method: 'POST',
          headers: systems,
          body: JSON.stringify(orderBody('ref-parser-none')),
        });
        expect(order.status).toBe(201);
      });
    });

    describeTransport();

    function describeTransport() {
      describe('hostile transport', () => {
        it('answers 413 for an oversized body (declared or streamed) and keeps serving', async () => {
          const big = new Uint8Array(s.hosted.maxBodyBytes + 1).fill(0x20);
          const declared = await fetch(url('/v1/webhook'), {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: big,
          });
          expect(declared.status).toBe(413);
          const stream = new ReadableStream({
            start(controller) {
              for (let i = 0; i < 5; i++) controller.enqueue(new Uint8Array(s.hosted.maxBodyBytes / 4));
              controller.close();
            },
          });
          const streamed = await fetch(url('/v1/orders'), {
            method: 'POST',
            headers: systems,
            body: stream,
            duplex: 'half',
          } as RequestInit);
          expect(streamed.status).toBe(413);
          expect((await streamed.json()).code).toBe('payload_too_large');
          expect((await fetch(`${s.hosted.origin}/health`)).status).toBe(200);
        });

        it('survives a client that disconnects mid-body', async () => {
          const watched = await s.hosted.watchNext();
          const target = new URL(watched.url);
          const socket = connect(Number(target.port), '127.0.0.1');
          await once(socket, 'connect');
          socket.write(
            `POST ${target.pathname}/v1/webhook HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 5000\r\n\r\n{"type":`,
          );
          await watched.seen;
          socket.destroy();
          expect(await watched.answered).toBeGreaterThanOrEqual(400);
          expect((await fetch(`${target.origin}/health`)).status).toBe(200);
        });
      });
    }
  });
}

/**
 * Issue 20 §3: invented bearer tokens on offer filtering made one introspection call to the service
 * each (2,000 calls in, 2,000 out). Now a token the service called inactive is remembered briefly,
 * and each client (peer address) may make the market introspect a bounded number of unknown tokens:
 * past it the answer is 429 with Retry-After, without a call. The service's own tokens, from its
 * own address, are never held back. The sandbox plays the service through msw and counts the
 * introspection calls; the market's clock is frozen, so no refill happens during a test.
 */
import { request as httpRequest } from 'node:http';
import {
  createMarket,
  createServiceClient,
  DEFAULT_LIMITS,
  type Market,
  Secret,
  silentLogger,
} from '@bnpl-kit/core';
import { createMemoryStore, generateKeyPair } from '@bnpl-kit/core/testing';
import { createSandbox, createSandboxHandlers, DEFAULT_SANDBOX_BASE_URL } from '@bnpl-kit/sandbox';
import { setupServer } from 'msw/node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AdapterEntry, StartedServer } from '../../src/adapter-server.js';

const appKeys = await generateKeyPair();
const serviceKeys = await generateKeyPair();
const sandbox = createSandbox({ signingKey: serviceKeys.privateKeyPem, organizations: [] });
const msw = setupServer(...createSandboxHandlers(sandbox));
let introspections = 0;
msw.events.on('request:start', ({ request }) => {
  if (new URL(request.url).pathname.endsWith('/v1/oauth2/introspect')) introspections += 1;
});

const BURST = DEFAULT_LIMITS.introspectionBurst;
const TTL = DEFAULT_LIMITS.inactiveTokenTtlMs;

interface Answer {
  status: number;
  retryAfter: string | undefined;
  code: string | undefined;
}

/**
 * One offer filtering call from `localAddress` (any 127.0.0.0/8 address is this machine), with an
 * `X-Forwarded-For` the client wrote itself when `forgedForwardedFor` is given.
 */
function filter(
  url: string,
  token: string,
  localAddress = '127.0.0.1',
  forgedForwardedFor?: string,
): Promise<Answer> {
  const body = JSON.stringify({ credify_id: 'crf-1', local_id: 'u1', offers: [] });
  return new Promise((resolve, reject) => {
    const req = httpRequest(`${url}/v1/offers/filter`, {
      method: 'POST',
      agent: false,
      localAddress,
      headers: {
        authorization: `Bearer ${token}`,
        'content-type': 'application/json',
        ...(forgedForwardedFor && { 'x-forwarded-for': forgedForwardedFor }),
      },
    });
    req.on('error', reject);
    req.on('response', (res) => {
      let text = '';
      res.on('data', (chunk) => {
        text += chunk;
      });
      res.on('end', () => {
        const retry = res.headers['retry-after'];
        resolve({
          status: res.statusCode ?? 0,
          retryAfter: Array.isArray(retry) ? retry[0] : retry,
          code: text ? (JSON.parse(text) as { code?: string }).code : undefined,
        });
      });
    });
    req.end(body);
  });
}

/** The invented-token tests for each adapter of `adapters`, the sandbox answering through msw. */
export function describeInventedTokens(adapters: readonly AdapterEntry[]): void {
  beforeAll(() => msw.listen({ onUnhandledRequest: 'bypass' }));
  afterAll(() => {
    msw.close();
    sandbox.close();
  });

  describe.each(adapters)('$name adapter: invented bearer tokens', (adapter) => {
    const orgId = `org-tokens-${adapter.name}`;
    const clock = { now: Date.now() };
    let server: StartedServer;
    const statusCounts = (answers: Answer[]) => {
      const counts: Record<number, number> = {};
      for (const a of answers) counts[a.status] = (counts[a.status] ?? 0) + 1;
      return counts;
    };

    function buildMarket(): Market {
      return createMarket({
        config: {
          mode: 'sandbox',
          integrationMode: 'data-sharing',
          appId: orgId,
          appSigningKey: new Secret(appKeys.privateKeyPem),
          servicePublicKey: serviceKeys.publicKey,
          publicBaseUrl: 'https://market.test/bnpl',
        },
        service: createServiceClient({
          baseUrl: DEFAULT_SANDBOX_BASE_URL,
          apiKey: `${orgId}-api-key`,
          retries: 0,
        }),
        store: createMemoryStore(),
        logger: silentLogger,
        now: () => clock.now,
        ...(adapter.clientKey && { clientKey: adapter.clientKey }),
        hooks: {
          authenticateInternalAPIClient: async () => null,
          authenticateInternalUser: async () => null,
          fetchUserClaimObject: async () => ({}),
          updateUserId: async () => {},
          upsertCommitments: async () => {},
          getBNPLCallback: (order) => `https://shop.test/done/${order.id}`,
        },
      });
    }

    beforeAll(async () => {
      sandbox.organizations.upsert({
        id: orgId,
        apiKeys: [`${orgId}-api-key`],
        signingKey: appKeys.privateKeyPem,
        webhookUrls: ['https://market.test/bnpl/v1/webhook'],
      });
      server = await adapter.start(buildMarket(), { mountPath: '/bnpl' });
    });
    afterAll(() => server.close());

    it('asks the service about one invented token once while it is remembered, then again', async () => {
      introspections = 0;
      const answers = await Promise.all(
        Array.from({ length: 10 }, () => filter(server.url, 'invented-once', '127.0.0.3')),
      );
      const again = await filter(server.url, 'invented-once', '127.0.0.3');
      expect([...answers, again].every((a) => a.status === 401)).toBe(true);
      expect(introspections).toBe(1);
      clock.now += TTL + 1;
      expect((await filter(server.url, 'invented-once', '127.0.0.3')).status).toBe(401);
      expect(introspections).toBe(2);
    });

    it(`makes at most ${BURST} introspection calls for many invented tokens from one client`, async () => {
      introspections = 0;
      const calls = 3 * BURST;
      // Each call claims another client in X-Forwarded-For: a forged header must not reset the bound.
      const answers = await Promise.all(
        Array.from({ length: calls }, (_, i) =>
          filter(server.url, `invented-${adapter.name}-${i}`, '127.0.0.4', `198.51.100.${i}`),
        ),
      );
      expect(introspections).toBe(BURST);
      expect(statusCounts(answers)).toEqual({ 401: BURST, 429: calls - BURST });
      const limited = answers.filter((a) => a.status === 429);
      expect(limited.every((a) => a.code === 'too_many_requests' && Number(a.retryAfter) >= 1)).toBe(true);
      // Time refills the bucket: one more unknown token per second.
      clock.now += 1_000;
      expect((await filter(server.url, `invented-${adapter.name}-late`, '127.0.0.4')).status).toBe(401);
      expect((await filter(server.url, `invented-${adapter.name}-later`, '127.0.0.4')).status).toBe(429);
      expect(introspections).toBe(BURST + 1);
      // The bound is per client: another address still gets its unknown token introspected.
      expect((await filter(server.url, `invented-${adapter.name}-other`, '127.0.0.6')).status).toBe(401);
      expect(introspections).toBe(BURST + 2);
    });

    it("never holds back the service's own tokens, from its own address", async () => {
      const answers = [];
      for (let i = 0; i < BURST * 2; i++) {
        answers.push(await filter(server.url, sandbox.organizations.offerFilterToken(orgId), '127.0.0.5'));
      }
      expect(statusCounts(answers)).toEqual({ 200: BURST * 2 });
    });
  });
}

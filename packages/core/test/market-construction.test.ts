import { afterEach, describe, expect, it, vi } from 'vitest';
import type { KitError } from '../src/errors.js';
import { createMarket } from '../src/market/create-market.js';
import { createMemoryStore } from '../src/market/memory-store.js';
import { loadConfig } from '../src/models/config.js';
import { generateKeyPair, kitErrorThrownBy, signWebhook } from '../src/testing.js';
import { createFakeService, ORIGIN, testHooks } from './market-support.js';

const base = () => ({
  config: {
    mode: 'sandbox' as const,
    integrationMode: 'basic' as const,
    appId: 'org-1',
    publicBaseUrl: ORIGIN,
  },
  hooks: testHooks(),
  service: createFakeService(),
  store: createMemoryStore(),
});

const misconfigured = (run: () => unknown): KitError => kitErrorThrownBy(run, 'misconfigured');

describe('createMarket refuses to start when it could not serve safely', () => {
  it('starts with the two auth hooks and the redirect hook in basic mode', () => {
    const { fetchUserClaimObject: _1, updateUserId: _2, upsertCommitments: _3, ...hooks } = testHooks();
    expect(() => createMarket({ ...base(), hooks })).not.toThrow();
  });

  it.each(['authenticateInternalAPIClient', 'authenticateInternalUser'] as const)(
    'refuses without %s: there is no permissive default',
    (name) => {
      const hooks = { ...testHooks(), [name]: undefined };
      const error = misconfigured(() => createMarket({ ...base(), hooks: hooks as never }));
      expect(error.errors?.map((e) => e.path)).toEqual([`hooks.${name}`]);
      expect(error.message).toContain('no permissive default');
    },
  );

  it('names every missing data-sharing piece at once', () => {
    const { fetchUserClaimObject: _1, updateUserId: _2, upsertCommitments: _3, ...hooks } = testHooks();
    const error = misconfigured(() =>
      createMarket({ ...base(), hooks, config: { ...base().config, integrationMode: 'data-sharing' } }),
    );
    expect(error.errors?.map((e) => e.path)).toEqual([
      'hooks.fetchUserClaimObject',
      'hooks.updateUserId',
      'hooks.upsertCommitments',
      'config.appSigningKey',
    ]);
  });

  it('needs the public base URL (the signed webhook URL) and a way to get the service key', () => {
    const error = misconfigured(() =>
      createMarket({ ...base(), config: { mode: 'sandbox', integrationMode: 'basic' } }),
    );
    expect(error.errors?.map((e) => e.path)).toEqual(['config.publicBaseUrl', 'config.servicePublicKey']);
  });

  it('refuses malformed paths, limits and keys', () => {
    const error = misconfigured(() =>
      createMarket({
        ...base(),
        paths: { prefix: 'v1', bnplRedirect: '/bnpl/redirect' },
        limits: { maxBodyBytes: -1 },
      }),
    );
    expect(error.errors?.map((e) => e.path)).toEqual([
      'paths.prefix',
      'paths.bnplRedirect',
      'limits.maxBodyBytes',
    ]);
    misconfigured(() =>
      createMarket({ ...base(), config: { ...base().config, servicePublicKey: 'not-a-key' } }),
    );
    misconfigured(() =>
      createMarket({ ...base(), config: { ...base().config, appSigningKey: 'not-a-key' } }),
    );
  });
});

describe('createMarket builds what the configuration describes', () => {
  const env = {
    MODE: 'sandbox',
    APP_ID: 'org-1',
    APP_API_KEY: 'api-key-from-env',
    SERVICE_API_URL: 'https://service.example/api',
    PUBLIC_BASE_URL: ORIGIN,
    MARKET_API_TOKEN: 'a'.repeat(32),
  };

  afterEach(() => vi.unstubAllGlobals());

  it('calls the service at SERVICE_API_URL with APP_API_KEY when no service is given', async () => {
    const seen: { url: string; apiKey: string | null }[] = [];
    vi.stubGlobal('fetch', async (input: string | URL | Request, init?: RequestInit) => {
      seen.push({ url: String(input), apiKey: new Headers(init?.headers).get('x-api-key') });
      return new Response('{"success":false}', {
        status: 503,
        headers: { 'content-type': 'application/json' },
      });
    });
    const { service: _s, ...options } = base();
    const market = createMarket({ ...options, config: loadConfig(env, { integrationMode: 'basic' }) });
    // No SERVICE_PUBLIC_KEY: the first webhook fetches the key from the configured service.
    await market.handle(new Request(market.webhookUrl, { method: 'POST', body: '{}' }));
    expect(seen.length).toBeGreaterThan(0);
    expect(seen[0]!.url.startsWith('https://service.example/api/')).toBe(true);
    expect(seen[0]!.apiKey).toBe('api-key-from-env');
  });

  it('gives each service call SERVICE_TIMEOUT_MS, not the default 8 s, when it builds the client', async () => {
    let attempts = 0;
    // A service that never answers (and ignores the abort signal): only the client's timer ends a call.
    vi.stubGlobal('fetch', () => {
      attempts++;
      return new Promise<never>(() => {});
    });
    const { service: _s, ...options } = base();
    const config = loadConfig({ ...env, SERVICE_TIMEOUT_MS: '100' }, { integrationMode: 'basic' });
    expect(config.serviceTimeoutMs).toBe(100);
    const market = createMarket({ ...options, config });
    // The key fetch: its token call is a read, timed out, retried, timed out again, answered 504.
    const response = await market.handle(new Request(market.webhookUrl, { method: 'POST', body: '{}' }));
    expect(response.status).toBe(504);
    expect(await response.json()).toMatchObject({
      code: 'upstream_timeout',
      detail: 'The BNPL service did not answer token within 100 ms',
    });
    expect(attempts).toBeGreaterThan(1);
  });

  it('names what is missing when there is neither a service nor its URL and key', () => {
    const { service: _s, ...options } = base();
    for (const missing of ['SERVICE_API_URL', 'APP_API_KEY']) {
      const config = loadConfig({ ...env, [missing]: undefined }, { integrationMode: 'basic' });
      const error = misconfigured(() => createMarket({ ...options, config }));
      expect(error.errors?.map((e) => e.path)).toEqual(['service']);
      expect(error.message).toContain('SERVICE_API_URL, APP_API_KEY');
    }
  });

  it('lets explicit service and webhook keys override the configuration', async () => {
    const keys = await generateKeyPair();
    const service = createFakeService();
    const { service: _s, ...options } = base();
    const config = { ...loadConfig(env, { integrationMode: 'basic' }), servicePublicKey: 'not-a-key' };
    // The bad configured key is never parsed: the explicit keys win; the fake service is used.
    const market = createMarket({ ...options, config, service, webhookKeys: keys.publicKey });
    const signed = await signWebhook({
      url: market.webhookUrl,
      body: { type: 'SOMETHING_NEW' },
      signingKey: keys.seed,
    });
    const response = await market.handle(
      new Request(market.webhookUrl, { method: 'POST', headers: signed.headers, body: signed.body }),
    );
    expect(response.status).toBe(200);
  });
});

describe('the memory store is for tests only', () => {
  it('is refused in production with a clear reason', () => {
    const error = misconfigured(() =>
      createMarket({
        ...base(),
        config: { ...base().config, mode: 'production', servicePublicKey: undefined },
      }),
    );
    expect(error.errors?.map((e) => e.path)).toEqual(['store']);
    expect(error.message).toContain('not durable');
  });

  it.each([undefined, true])('accepts a store whose durable flag is %s in production', (durable) => {
    const store = { ...createMemoryStore(), durable } as never;
    expect(() =>
      createMarket({ ...base(), store, config: { ...base().config, mode: 'production' } }),
    ).not.toThrow();
  });

  it('is not exported from the package root', async () => {
    const root = await import('../src/index.js');
    expect(Object.keys(root)).not.toContain('createMemoryStore');
    const testing = await import('../src/testing.js');
    expect(typeof testing.createMemoryStore).toBe('function');
  });
});

import { describe, expect, it } from 'vitest';
import type { KitError } from '../src/errors.js';
import { createMarket } from '../src/market/create-market.js';
import { createMemoryStore } from '../src/market/memory-store.js';
import { kitErrorThrownBy } from '../src/testing.js';
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
      createMarket({ ...base(), config: { mode: 'production', integrationMode: 'basic' } }),
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

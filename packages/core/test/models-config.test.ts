import { inspect } from 'node:util';
import { describe, expect, it } from 'vitest';
import { KitError } from '../src/errors.js';
import { DEFAULT_SERVICE_TIMEOUT_MS, describeConfig, loadConfig } from '../src/models/config.js';
import { DEFAULT_TOLERANCE_SECONDS } from '../src/signature/message.js';

const production = {
  MODE: 'production',
  APP_ID: 'org-1',
  APP_API_KEY: 'api-key-secret-value',
  APP_SIGNING_KEY: 'signing-key-secret-value',
  SERVICE_API_URL: 'https://service.example.com',
  PUBLIC_BASE_URL: 'https://market.example.com',
  MARKET_API_TOKEN: 'market-token-0123456789abcdef0123456789',
  BNPL_CALLBACK_URL: 'https://market.example.com/done',
};

function problems(env: Record<string, string>, integrationMode: 'basic' | 'data-sharing' = 'basic') {
  try {
    loadConfig(env, { integrationMode });
  } catch (error) {
    expect(error).toBeInstanceOf(KitError);
    expect((error as KitError).code).toBe('misconfigured');
    return (error as KitError).errors?.map((e) => e.path) ?? [];
  }
  throw new Error('expected the configuration to be refused');
}

describe('configuration (WIRE §8)', () => {
  it('defaults to sandbox on port 3000 with a 300 s tolerance', () => {
    const config = loadConfig({}, { integrationMode: 'basic' });
    expect(config).toMatchObject({ mode: 'sandbox', port: 3000, webhookToleranceSeconds: 300 });
    // The models layer may not import signature/, so its default is written out: the same window.
    expect(config.webhookToleranceSeconds).toBe(DEFAULT_TOLERANCE_SECONDS);
  });

  it('reads SERVICE_TIMEOUT_MS: each service attempt, 8000 ms unless set, whole milliseconds in range', () => {
    expect(loadConfig({}, { integrationMode: 'basic' }).serviceTimeoutMs).toBe(DEFAULT_SERVICE_TIMEOUT_MS);
    expect(DEFAULT_SERVICE_TIMEOUT_MS).toBe(8000);
    expect(loadConfig({ SERVICE_TIMEOUT_MS: ' 2500 ' }, { integrationMode: 'basic' }).serviceTimeoutMs).toBe(
      2500,
    );
    for (const value of ['99', '120001', '1.5', 'soon']) {
      expect(problems({ SERVICE_TIMEOUT_MS: value })).toEqual(['SERVICE_TIMEOUT_MS']);
    }
  });

  it('reads CLAIM_SCOPE_HASH: per-scope by default, all-scopes for the prior art, nothing else (WIRE §7)', () => {
    expect(loadConfig({}, { integrationMode: 'data-sharing' }).claimScopeHash).toBe('per-scope');
    expect(
      loadConfig({ CLAIM_SCOPE_HASH: ' all-scopes ' }, { integrationMode: 'data-sharing' }).claimScopeHash,
    ).toBe('all-scopes');
    expect(problems({ CLAIM_SCOPE_HASH: 'every-scope' })).toEqual(['CLAIM_SCOPE_HASH']);
  });

  it('reports every problem at once, by name', () => {
    const found = problems({
      MODE: 'prod',
      PORT: 'eighty',
      APP_PROVIDING_BASIC_PROFILE: 'name,shoe_size',
      WEBHOOK_TOLERANCE_SECONDS: '0',
    });
    expect(found).toEqual(
      expect.arrayContaining(['MODE', 'PORT', 'APP_PROVIDING_BASIC_PROFILE[1]', 'WEBHOOK_TOLERANCE_SECONDS']),
    );
  });

  it('production requires the service URL, keys, auth token and callback', () => {
    expect(problems({ MODE: 'production' }, 'data-sharing').sort()).toEqual(
      [
        'APP_API_KEY',
        'APP_ID',
        'APP_SIGNING_KEY',
        'BNPL_CALLBACK_URL',
        'MARKET_API_TOKEN',
        'PUBLIC_BASE_URL',
        'SERVICE_API_URL',
      ].sort(),
    );
    expect(problems({ ...production, MARKET_API_TOKEN: 'short' })).toEqual(['MARKET_API_TOKEN']);
    expect(problems({ ...production, PUBLIC_BASE_URL: 'http://market.example.com' })).toEqual([
      'PUBLIC_BASE_URL',
    ]);
    expect(loadConfig(production, { integrationMode: 'data-sharing' }).mode).toBe('production');
  });

  it('parses the basic profile list', () => {
    const config = loadConfig(
      { APP_PROVIDING_BASIC_PROFILE: ' name, email ,phone' },
      { integrationMode: 'data-sharing' },
    );
    expect(config.providingBasicProfile).toEqual(['name', 'email', 'phone']);
  });

  it('never prints secrets', () => {
    const config = loadConfig(
      { ...production, DATABASE_URL: 'postgres://u:db-password@h/d' },
      { integrationMode: 'data-sharing' },
    );
    const printouts = [
      JSON.stringify(config),
      inspect(config, { depth: 5 }),
      String(config.appApiKey),
      `${config.marketApiToken}`,
      JSON.stringify(describeConfig(config)),
    ];
    for (const text of printouts) {
      for (const secret of [
        'api-key-secret-value',
        'signing-key-secret-value',
        'market-token-0123456789',
        'db-password',
      ]) {
        expect(text).not.toContain(secret);
      }
    }
    expect(config.appApiKey?.reveal()).toBe('api-key-secret-value');
  });
});

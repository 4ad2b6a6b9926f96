import { describe, expect, it } from 'vitest';
import { type ConfigureOptions, configure, DEFAULT_SERVICE_URLS } from '../src/index.js';

const base: ConfigureOptions = { apiKey: 'key', env: 'sandbox', appName: 'Demo Shop' };

describe('configure', () => {
  it('uses the documented default service URL for each environment', () => {
    expect(configure({ ...base, env: 'production' }).serviceUrl).toBe(DEFAULT_SERVICE_URLS.production);
    expect(configure(base).serviceUrl).toBe(DEFAULT_SERVICE_URLS.sandbox);
    expect(DEFAULT_SERVICE_URLS.production).toMatch(/^https:\/\//);
  });

  it('takes serviceUrl as an opaque base, without its trailing slash', () => {
    const sdk = configure({ ...base, serviceUrl: 'http://localhost:3000/sandbox-service/' });
    expect(sdk.serviceUrl).toBe('http://localhost:3000/sandbox-service');
    expect(sdk.env).toBe('sandbox');
    expect(sdk.appName).toBe('Demo Shop');
  });

  it.each([
    [{ apiKey: '' }, 'apiKey'],
    [{ env: 'staging' }, 'env'],
    [{ appName: ' ' }, 'appName'],
    [{ serviceUrl: 'localhost:3000' }, 'serviceUrl'],
    [{ serviceUrl: 'ftp://svc.example' }, 'http'],
    [{ env: 'production', serviceUrl: 'http://svc.example' }, 'https'],
    [{ timeoutMs: 0 }, 'timeoutMs'],
  ])('refuses %o', (override, mentioned) => {
    expect(() => configure({ ...base, ...override } as ConfigureOptions)).toThrowError(
      expect.objectContaining({ code: 'invalid_config', message: expect.stringContaining(mentioned) }),
    );
  });
});

import { BnplSdkError } from './errors.js';

export type BnplEnv = 'sandbox' | 'production';

/**
 * Where the SDK talks to when `serviceUrl` is not given: the hosts of the production service of
 * this kind (prior art, WIRE §6), so that a market moves to it with configuration alone. A
 * market trying the kit's own sandbox passes its URL instead, for example
 * `http://localhost:3000/sandbox-service` for the sandbox embedded in a reference server.
 */
export const DEFAULT_SERVICE_URLS: Readonly<Record<BnplEnv, string>> = {
  sandbox: 'https://sandbox-api.credify.dev',
  production: 'https://api.credify.one',
};

export const DEFAULT_TIMEOUT_MS = 8_000;

export interface ConfigureOptions {
  /** An API key with the `claim_provider` permission, sent as `X-API-KEY` to get a token. */
  apiKey: string;
  env: BnplEnv;
  /** The market's application name, shown by the hosted pages. */
  appName: string;
  /** Base URL of the service (its API and its hosted pages); defaults to DEFAULT_SERVICE_URLS[env]. */
  serviceUrl?: string;
  /** Per-request time limit of the service API calls; default 8 s as in WIRE §6. */
  timeoutMs?: number;
  /** Replaces the global fetch (tests, instrumented clients). */
  fetch?: typeof fetch;
}

export interface ResolvedConfig {
  apiKey: string;
  env: BnplEnv;
  appName: string;
  serviceUrl: string;
  /** Origin of the hosted pages: the only origin messages are accepted from and posted to. */
  serviceOrigin: string;
  timeoutMs: number;
  fetch: typeof fetch;
}

function fail(message: string): never {
  throw new BnplSdkError('invalid_config', message);
}

export function resolveConfig(options: ConfigureOptions): ResolvedConfig {
  if (typeof options !== 'object' || options === null) fail('configure() needs an options object');
  const { apiKey, env, appName } = options;
  if (typeof apiKey !== 'string' || apiKey.trim() === '') fail('apiKey must be a non-empty string');
  if (env !== 'sandbox' && env !== 'production') fail("env must be 'sandbox' or 'production'");
  if (typeof appName !== 'string' || appName.trim() === '') fail('appName must be a non-empty string');

  const serviceUrl = (options.serviceUrl ?? DEFAULT_SERVICE_URLS[env]).replace(/\/+$/, '');
  let parsed: URL;
  try {
    parsed = new URL(serviceUrl);
  } catch {
    fail(`serviceUrl is not an absolute URL: ${serviceUrl}`);
  }
  if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') fail('serviceUrl must be http(s)');
  // The API key travels to this host: production never sends it in clear text.
  if (env === 'production' && parsed.protocol !== 'https:') fail('serviceUrl must be https in production');

  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  if (!Number.isFinite(timeoutMs) || timeoutMs <= 0) fail('timeoutMs must be a positive number');

  const customFetch = options.fetch;
  return {
    apiKey,
    env,
    appName,
    serviceUrl,
    serviceOrigin: parsed.origin,
    timeoutMs,
    // Looked up at call time, and called unbound-safe: window.fetch throws when detached from window.
    fetch: customFetch ?? ((input, init) => globalThis.fetch(input, init)),
  };
}

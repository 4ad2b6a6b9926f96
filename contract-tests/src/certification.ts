/**
 * The setup of a certification run, shared by `bnpl-kit certify` and any test that certifies a
 * market programmatically (the reference servers): a standalone sandbox registered for the market
 * (webhook URL, offer filtering URL, API key, claim-token key), the environment the market must be
 * started with (WIRE §8), and the options for `runContractSuite`.
 *
 *   const run = await startCertification({ marketUrl, mode: 'basic' });
 *   // start the market with run.env, then:
 *   const report = await runContractSuite(run.suiteOptions);
 *   await run.close();
 */

import { DEFAULT_PATHS, type IntegrationMode } from '@bnpl-kit/core';
import { base64UrlEncode, seedToPkcs8Pem } from '@bnpl-kit/core/wire';
import {
  DEFAULT_ORGANIZATION_ID,
  generateApiKey,
  type OrganizationInput,
  optionsFromConfig,
  type SandboxOptions,
  startSandboxServer,
} from '@bnpl-kit/sandbox';
import type { ContractSuiteOptions } from './runner.js';
import { createHttpSandbox } from './sandbox/http-sandbox.js';

export interface CertificationOptions {
  /** The market's base URL, without `/v1`: also its PUBLIC_BASE_URL. */
  marketUrl: string;
  mode: IntegrationMode;
  /** Default 4010; 0 picks a free port. */
  sandboxPort?: number;
  sandboxHost?: string;
  /**
   * A saved configuration (the sandbox's JSON config, snake_case, plus a `certify` member with
   * `market_token` and `callback_url`), so that a market configured earlier keeps working.
   */
  config?: Record<string, unknown>;
  organizationId?: string;
  apiKey?: string;
  /** The sandbox's webhook signing key (base64url seed or PKCS#8). Generated when absent. */
  serviceSigningKey?: string;
  /** The market's claim-token public key, when it keeps its own APP_SIGNING_KEY (data-sharing). */
  orgPublicKey?: string;
  marketToken?: string;
  callbackUrl?: string;
}

export interface Certification {
  /** The sandbox service's base URL (the market's SERVICE_API_URL). */
  serviceUrl: string;
  /** What the market under test must be started with, in print order (MODE, SERVICE_API_URL, …). */
  env: Record<string, string>;
  /** Options for `runContractSuite` against this market and this sandbox. */
  suiteOptions: ContractSuiteOptions;
  /** The configuration to save so that a later run reuses the same keys (see `config`). */
  savedConfig(): Record<string, unknown>;
  close(): Promise<void>;
}

function randomSeed(): string {
  return base64UrlEncode(crypto.getRandomValues(new Uint8Array(32)));
}

/** The PKCS#8 body without BEGIN/END lines: one line, the form the dashboard shows (WIRE §7). */
function generatedAppSigningKey(): string {
  return seedToPkcs8Pem(crypto.getRandomValues(new Uint8Array(32)))
    .replace(/-----[A-Z ]+-----/g, '')
    .replace(/\s+/g, '');
}

/** The basic profile keys a data-sharing market under certification shares (WIRE §7). */
export const CERTIFY_BASIC_PROFILE = 'phone,name,email';

/** The port the market must listen on: the market URL's, or the scheme's default. */
function portOf(url: string): string {
  const parsed = new URL(url);
  return parsed.port || (parsed.protocol === 'https:' ? '443' : '80');
}

/**
 * The page the reference servers serve after a BNPL flow, `/bnpl/complete` at the market's origin: a
 * page of the shop, not of the kit's mount, so a market mounted under a path (`…/bnpl`) does not
 * get `…/bnpl/bnpl/complete`.
 */
export function defaultCallbackUrl(marketUrl: string): string {
  return `${new URL(marketUrl).origin}/bnpl/complete`;
}

function text(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined;
}

export async function startCertification(options: CertificationOptions): Promise<Certification> {
  const marketUrl = options.marketUrl.replace(/\/+$/, '');
  const { certify, ...sandboxJson } = options.config ?? {};
  const extra = (certify ?? {}) as Record<string, unknown>;
  const sandboxOptions: SandboxOptions = options.config ? optionsFromConfig(sandboxJson) : {};
  const configured = sandboxOptions.organizations?.[0];
  const firstKey = configured?.apiKeys?.[0];
  const apiKey =
    options.apiKey ?? (typeof firstKey === 'string' ? firstKey : firstKey?.key) ?? generateApiKey();
  const dataSharing = options.mode === 'data-sharing';
  const { prefix, webhook, offerFilter } = DEFAULT_PATHS;
  const organization: OrganizationInput = {
    ...configured,
    id: options.organizationId ?? configured?.id ?? DEFAULT_ORGANIZATION_ID,
    apiKeys: [apiKey],
    apiBaseUrl: marketUrl,
    webhookUrls: [`${marketUrl}${prefix}${webhook}`],
    offerFilteringUrl: dataSharing ? `${marketUrl}${prefix}${offerFilter}` : undefined,
  };
  // The claim-token key: the market's own public key, the configured signing key, or a new one.
  let appSigningKey: string | undefined;
  if (options.orgPublicKey) {
    organization.publicKey = options.orgPublicKey;
    organization.signingKey = undefined;
  } else if (organization.signingKey) {
    appSigningKey = organization.signingKey;
  } else if (dataSharing && !organization.publicKey) {
    appSigningKey = generatedAppSigningKey();
    organization.signingKey = appSigningKey;
  }
  const given = options.serviceSigningKey ?? sandboxOptions.signingKey;
  const serviceSigningKey = typeof given === 'string' ? given : given ? base64UrlEncode(given) : randomSeed();
  const marketToken = options.marketToken ?? text(extra.market_token) ?? `mkt_${randomSeed()}`;
  const callbackUrl = options.callbackUrl ?? text(extra.callback_url) ?? defaultCallbackUrl(marketUrl);

  const server = await startSandboxServer({
    ...sandboxOptions,
    signingKey: serviceSigningKey,
    organizations: [organization],
    port: options.sandboxPort ?? 4010,
    host: options.sandboxHost ?? '127.0.0.1',
  });
  const env: Record<string, string> = {
    MODE: 'sandbox',
    // The integration mode under a name of its own: MODE is the service environment (WIRE §8).
    BNPL_INTEGRATION_MODE: options.mode,
    PORT: portOf(marketUrl),
    SERVICE_API_URL: server.url,
    APP_ID: organization.id,
    APP_API_KEY: apiKey,
    SERVICE_PUBLIC_KEY: await server.sandbox.publicKey(),
    ...(dataSharing && appSigningKey !== undefined && { APP_SIGNING_KEY: appSigningKey }),
    ...(dataSharing && { APP_PROVIDING_BASIC_PROFILE: CERTIFY_BASIC_PROFILE }),
    PUBLIC_BASE_URL: marketUrl,
    MARKET_API_TOKEN: marketToken,
    BNPL_CALLBACK_URL: callbackUrl,
  };
  return {
    serviceUrl: server.url,
    env,
    suiteOptions: {
      marketUrl,
      mode: options.mode,
      marketToken,
      bnplCallbackUrl: callbackUrl,
      sandbox: createHttpSandbox({
        url: server.url,
        organizationId: organization.id,
        apiKey,
        signingKey: serviceSigningKey,
      }),
    },
    savedConfig: () => ({
      signing_key: serviceSigningKey,
      organizations: [
        {
          id: organization.id,
          api_keys: [apiKey],
          api_base_url: marketUrl,
          webhook_urls: organization.webhookUrls,
          ...(organization.offerFilteringUrl && { offer_filtering_url: organization.offerFilteringUrl }),
          ...(organization.signingKey
            ? { signing_key: organization.signingKey }
            : organization.publicKey
              ? { public_key: organization.publicKey }
              : {}),
        },
      ],
      certify: { market_token: marketToken, callback_url: callbackUrl },
    }),
    close: () => server.close(),
  };
}

/**
 * The market of a reference server: core's `createMarket` with the reference hooks for the mode,
 * configured for the URL the server answers on and the service's webhook key.
 */
import { createMarket, type Market, type ServiceClient } from '@bnpl-kit/core';
import type { Store } from '@bnpl-kit/store';
import type { Logger } from 'pino';
import type { ServerConfig } from './config.js';
import { type EmbeddedSandbox, providingBasicProfile } from './embedded-sandbox.js';
import { basicHooks, dataSharingHooks, type HookDeps } from './hooks.js';
import { type DisbursementInvoiceSource, referenceInvoice } from './invoice.js';
import { BNPL_COMPLETE_PATH } from './own-routes.js';
import { rateLimitedLogger } from './rate-limited-logger.js';
import type { ServerCredentials } from './server-service.js';

export interface ServerMarket {
  market: Market;
  /** What the hooks run on; the demo routes and the disbursement job use the same. */
  hookDeps: HookDeps;
}

export function createServerMarket(input: {
  config: ServerConfig;
  credentials: ServerCredentials;
  publicBaseUrl: string;
  embedded: EmbeddedSandbox | undefined;
  service: ServiceClient;
  store: Store;
  logger: Logger;
  getDisbursementInvoice: DisbursementInvoiceSource | undefined;
}): ServerMarket {
  const { config, credentials, publicBaseUrl, store, logger } = input;
  const hookDeps: HookDeps = {
    store,
    logger,
    marketApiToken: credentials.marketApiToken,
    appId: credentials.appId,
    providingBasicProfile:
      config.mode === 'sandbox' ? providingBasicProfile(config) : config.providingBasicProfile,
    bnplCallbackUrl: config.bnplCallbackUrl ?? `${publicBaseUrl}${BNPL_COMPLETE_PATH}`,
    getDisbursementInvoice: input.getDisbursementInvoice ?? referenceInvoice,
  };
  const market = createMarket({
    config: {
      ...config,
      appId: credentials.appId,
      appSigningKey: credentials.appSigningKey,
      publicBaseUrl,
      servicePublicKey: input.embedded?.servicePublicKey ?? config.servicePublicKey,
    },
    hooks: config.integrationMode === 'data-sharing' ? dataSharingHooks(hookDeps) : basicHooks(hookDeps),
    service: input.service,
    store,
    // One line per interval for a repeated failure (a database outage fails every request alike).
    logger: rateLimitedLogger(logger),
  });
  return { market, hookDeps };
}

/**
 * What `createMarket` builds from the validated configuration when the caller does not pass it:
 * the service client (`SERVICE_API_URL` + `APP_API_KEY`) and the webhook keys (`SERVICE_PUBLIC_KEY`,
 * or the service's key endpoint). Explicit `service` / `webhookKeys` options win. Runs after
 * `checkMarketOptions`, which has already refused a configuration missing both.
 */
import { KitError } from '../errors.js';
import { createServiceClient } from '../service/client.js';
import type { ServiceClient } from '../service/types.js';
import { resolveKeyring } from '../signature/keyring.js';
import type { CreateMarketOptions } from './options.js';
import type { MarketTransaction } from './store.js';
import { fetchedKeys, keyringSource, type WebhookKeySource } from './webhook-keys.js';

export interface ResolvedServices {
  service: ServiceClient;
  webhookKeys: WebhookKeySource;
  /** The URL webhooks are signed for: `publicBaseUrl` + prefix + webhook path. */
  webhookUrl: string;
}

export function resolveServices<Tx extends MarketTransaction>(
  options: CreateMarketOptions<Tx>,
  webhookPath: string,
  now: () => number,
): ResolvedServices {
  const { config } = options;
  const { serviceApiUrl, appApiKey, publicBaseUrl, appId } = config;
  let service = options.service;
  if (service === undefined) {
    if (serviceApiUrl === undefined || appApiKey === undefined) throw unchecked('service');
    service = createServiceClient({
      baseUrl: serviceApiUrl,
      apiKey: appApiKey,
      timeoutMs: config.serviceTimeoutMs,
    });
  }
  const keys = options.webhookKeys ?? config.servicePublicKey;
  let webhookKeys: WebhookKeySource;
  if (keys !== undefined && keys !== '') webhookKeys = keyringSource(resolveKeyring(keys));
  else if (appId !== undefined) webhookKeys = fetchedKeys(service, appId, now);
  else throw unchecked('config.servicePublicKey');
  if (publicBaseUrl === undefined) throw unchecked('config.publicBaseUrl');
  return { service, webhookKeys, webhookUrl: `${publicBaseUrl.replace(/\/+$/, '')}${webhookPath}` };
}

/** checkMarketOptions refuses these first; reaching here means the two checks disagree. */
function unchecked(what: string): KitError {
  return new KitError('internal', `createMarket: ${what} passed the start-up check but is missing`);
}

/**
 * `ContractSandbox` over the sandbox's HTTP surface: the admin API under `/sandbox/…` for the
 * provider's buttons and the records, the service API (WIRE §6) where the suite acts as the SDK
 * (availability). Works the same for a standalone sandbox and for one served through msw, because
 * msw intercepts `fetch` in-process. Each part of the interface lives in its own file.
 */
import type { ContractSandbox } from './driver.js';
import { organizationRecords } from './organization.js';
import { providerActions } from './provider-actions.js';
import { createSandboxClient } from './sandbox-client.js';
import { serviceCallRecords } from './service-calls.js';
import { webhookDeliveries } from './webhook-deliveries.js';

export interface HttpSandboxOptions {
  /** The sandbox base URL, which is also the market's `SERVICE_API_URL`. */
  url: string;
  organizationId: string;
  /** An API key of the organisation with `claim_provider` (for availability). */
  apiKey: string;
  /** The sandbox's webhook signing key (PKCS#8 PEM or base64url seed): checks sign their own deliveries. */
  signingKey: string | Uint8Array;
  /** When the sandbox guards its admin API. */
  adminToken?: string;
  fetch?: typeof fetch;
  /** How long to wait for a webhook delivery to be answered. Default 10 000. */
  deliveryTimeoutMs?: number;
}

export function createHttpSandbox(options: HttpSandboxOptions): ContractSandbox {
  const timeoutMs = options.deliveryTimeoutMs ?? 10_000;
  const client = createSandboxClient({
    url: options.url,
    adminToken: options.adminToken,
    fetch: options.fetch,
    timeoutMs,
  });
  const { organizationId } = options;
  return {
    serviceUrl: client.base,
    organizationId,
    ...providerActions(client),
    ...webhookDeliveries(client, { organizationId, signingKey: options.signingKey, timeoutMs }),
    ...organizationRecords(client, { organizationId, apiKey: options.apiKey }),
    ...serviceCallRecords(client),
  };
}

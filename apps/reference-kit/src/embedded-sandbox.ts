/**
 * The embedded sandbox (sandbox mode without SERVICE_API_URL): the simulated service runs in this
 * process, its "dashboard" already filled in with this server's own URLs (webhook, API base URL,
 * offer filtering), whitelisted, with the demo offers approved. The market's service client reaches
 * it through an in-process fetch; the sandbox reaches the market over real HTTP (webhooks, offer
 * filtering), through the framework adapter like the real service would. The same sandbox is also
 * served under `/sandbox-service` for the browser SDK and for curl. Its records live in the market's
 * own database (table `bnpl_sandbox_records`), so a restart keeps the service-side orders that the
 * market's rows point at.
 */
import { createServiceClient, type ServiceClient } from '@bnpl-kit/core';
import type { PersistentSandbox, PersistentSandboxOptions } from '@bnpl-kit/sandbox';
import { type Store, sandboxRecords } from '@bnpl-kit/store';
import type { ServerConfig } from './config.js';
import { DEFAULT_PROVIDING_BASIC_PROFILE, demoOffers } from './demo-data.js';
import { publicKeyOf, type SandboxKeys } from './keys.js';

export const SANDBOX_MOUNT = '/sandbox-service';

export interface EmbeddedSandbox {
  sandbox: PersistentSandbox;
  /** The service client of the market, wired to the sandbox in-process. */
  service: ServiceClient;
  /** The sandbox's webhook public key (what SERVICE_PUBLIC_KEY would be). */
  servicePublicKey: string;
  /** `PUBLIC_BASE_URL + /sandbox-service`: the `serviceUrl` of the browser SDK. */
  serviceUrl: string;
}

export async function startEmbeddedSandbox(input: {
  config: ServerConfig;
  keys: SandboxKeys;
  publicBaseUrl: string;
  /** Where the sandbox keeps its records: the market's store. */
  store: Store;
  /** Test hooks: e.g. a compressed retry schedule. */
  options?: Partial<Omit<PersistentSandboxOptions, 'records'>>;
}): Promise<EmbeddedSandbox> {
  const { config, keys, publicBaseUrl } = input;
  // Loaded only when the sandbox runs in this process: with an external service it would cost
  // start-up time and memory for nothing.
  const { createPersistentSandbox, createSandboxFetch } = await import('./sandbox-runtime.js');
  const dataSharing = config.integrationMode === 'data-sharing';
  const sandbox = await createPersistentSandbox({
    ...input.options,
    // One namespace per organisation: servers sharing a database keep their sandboxes apart.
    records: sandboxRecords(input.store, `embedded:${keys.appId}`),
    signingKey: keys.sandboxSigningKey!.reveal(),
    organizations: [
      {
        id: keys.appId,
        name: `Reference market (${config.integrationMode})`,
        apiKeys: [keys.appApiKey.reveal()],
        apiBaseUrl: `${publicBaseUrl}/v1`,
        webhookUrls: [`${publicBaseUrl}/v1/webhook`],
        ...(dataSharing && {
          offerFilteringUrl: `${publicBaseUrl}/v1/offers/filter`,
          basicProfileKeys: providingBasicProfile(config),
          // Only the public half: the sandbox verifies claim tokens, it never signs them.
          publicKey: publicKeyOf(keys.appSigningKey!.reveal()),
        }),
        whitelisted: true,
        // Basic mode shares no claims, so an offer with a condition is never shown there: only the
        // unconditional one is approved, and the console lists what the page can offer.
        approvedOffers: demoOffers(keys.appId).filter(
          (offer) => dataSharing || (offer.conditions as unknown[]).length === 0,
        ),
      },
    ],
  });
  const serviceUrl = `${publicBaseUrl}${SANDBOX_MOUNT}`;
  const service = createServiceClient({
    baseUrl: serviceUrl,
    apiKey: keys.appApiKey,
    timeoutMs: config.serviceTimeoutMs,
    // Its records live in this server's store: their failing is this server's disk, not the service.
    fetch: createSandboxFetch(sandbox, { basePath: SANDBOX_MOUNT, sharesStore: true }),
  });
  return { sandbox, service, servicePublicKey: await sandbox.publicKey(), serviceUrl };
}

export function providingBasicProfile(config: ServerConfig) {
  return config.providingBasicProfile.length > 0
    ? config.providingBasicProfile
    : [...DEFAULT_PROVIDING_BASIC_PROFILE];
}

/**
 * The service side of a reference server: the credentials in use (the sandbox key file's, or the
 * environment's), and the service client: in-process to the embedded sandbox, or over HTTP to
 * SERVICE_API_URL. The sandbox is loaded only when it runs here.
 */
import { createServiceClient, type Secret, type ServiceClient } from '@bnpl-kit/core';
import type { Store } from '@bnpl-kit/store';
import type { Logger } from 'pino';
import type { ServerConfig } from './config.js';
import { type EmbeddedSandbox, SANDBOX_MOUNT, startEmbeddedSandbox } from './embedded-sandbox.js';
import type { SandboxKeys } from './keys.js';
import type { StartReferenceServerOptions } from './server.js';

export interface ServerCredentials {
  appId: string;
  apiKey: Secret;
  marketApiToken: Secret;
  appSigningKey: Secret | undefined;
}

/** Sandbox mode reads them from the key file; otherwise the configuration requires them. */
export function serverCredentials(config: ServerConfig, keys: SandboxKeys | undefined): ServerCredentials {
  return {
    appId: keys?.appId ?? config.appId!,
    apiKey: keys?.appApiKey ?? config.appApiKey!,
    marketApiToken: keys?.marketApiToken ?? config.marketApiToken!,
    appSigningKey: keys?.appSigningKey ?? config.appSigningKey,
  };
}

export interface ConnectedService {
  service: ServiceClient;
  /** Set when the sandbox runs in this process. */
  embedded: EmbeddedSandbox | undefined;
}

export async function connectService(input: {
  config: ServerConfig;
  keys: SandboxKeys | undefined;
  apiKey: Secret;
  publicBaseUrl: string;
  store: Store;
  logger: Logger;
  sandboxOptions: StartReferenceServerOptions['sandboxOptions'];
}): Promise<ConnectedService> {
  const { config, keys, logger } = input;
  if (!config.embeddedSandbox || !keys) {
    return {
      embedded: undefined,
      service: createServiceClient({
        baseUrl: config.serviceApiUrl!,
        apiKey: input.apiKey,
        timeoutMs: config.serviceTimeoutMs,
      }),
    };
  }
  const embedded = await startEmbeddedSandbox({
    config,
    keys,
    publicBaseUrl: input.publicBaseUrl,
    store: input.store,
    options: {
      onPersistError: (err) => logger.error({ err }, 'the sandbox could not store its state'),
      ...input.sandboxOptions,
    },
  });
  // The embedded sandbox has no admin token: beyond loopback its admin API (signing keys included)
  // would answer anyone who reaches this server.
  const { adminExposure } = await import('./sandbox-runtime.js'); // loaded already, with the sandbox
  const exposed = adminExposure(config.host, undefined);
  if (exposed !== undefined) {
    embedded.sandbox.requireAdminToken(exposed);
    logger.warn(
      { host: config.host },
      `the embedded sandbox's admin API (${SANDBOX_MOUNT}/sandbox/..., signing keys included) is closed: ${exposed}`,
    );
  }
  return { embedded, service: embedded.service };
}

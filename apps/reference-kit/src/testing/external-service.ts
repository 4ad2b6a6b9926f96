/**
 * A standalone sandbox over HTTP, playing the service for servers configured with SERVICE_API_URL
 * (several market instances, or a market process that is killed and restarted), and the
 * environment such a market needs to talk to it.
 */

import type { KnownWebhookEvent } from '@bnpl-kit/core';
import { signWebhook } from '@bnpl-kit/core/testing';
import { encodeWebhookEvent } from '@bnpl-kit/core/wire';
import { type SandboxServer, startSandboxServer } from '@bnpl-kit/sandbox';
import { generateSigningKey } from '../index.js';

export interface ExternalService {
  server: SandboxServer;
  organizationId: string;
  env: Record<string, string> & { MARKET_API_TOKEN: string };
  /** Signs an event for `webhookUrl` the way the service does (same event ID → same delivery). */
  sign(webhookUrl: string, event: KnownWebhookEvent, eventId: string): ReturnType<typeof signWebhook>;
  close(): Promise<void>;
}

export async function startExternalService(): Promise<ExternalService> {
  const serviceSeed = crypto.getRandomValues(new Uint8Array(32));
  const appKey = generateSigningKey();
  const organizationId = `org-ext-${crypto.randomUUID().slice(0, 8)}`;
  const apiKey = `sk_test_${crypto.randomUUID()}`;
  const server = await startSandboxServer({
    port: 0,
    signingKey: serviceSeed,
    organizations: [{ id: organizationId, apiKeys: [apiKey], publicKey: appKey.publicKey, webhookUrls: [] }],
  });
  const env = {
    SERVICE_API_URL: server.url,
    SERVICE_PUBLIC_KEY: await server.sandbox.publicKey(),
    APP_ID: organizationId,
    APP_API_KEY: apiKey,
    APP_SIGNING_KEY: appKey.pkcs8,
    MARKET_API_TOKEN: `mkt_${crypto.randomUUID()}`,
  };
  return {
    server,
    organizationId,
    env,
    sign: (webhookUrl, event, eventId) =>
      signWebhook({
        url: webhookUrl,
        body: JSON.stringify(encodeWebhookEvent(event)),
        signingKey: serviceSeed,
        eventId,
      }),
    close: () => server.close(),
  };
}

/**
 * A webhook rejected (401) that arrived under another host than the one signatures are verified
 * for is almost always a registration mistake: the service signed `http://localhost:3000/v1/webhook`
 * while this server verifies `http://127.0.0.1:3000/v1/webhook` (WIRE §4: the URL as registered,
 * never the Host header). Say which URL to register, once per host, instead of leaving a bare 401.
 */
import type { MarketLogger } from '@bnpl-kit/core';

/** The advice for a rejected webhook received with this Host header, or undefined if the host matches. */
export function webhookHostHint(host: string | undefined, webhookUrl: string): string | undefined {
  if (!host) return undefined;
  const verified = new URL(webhookUrl);
  if (verified.host === host.toLowerCase()) return undefined;
  const received = `${verified.protocol}//${host}${verified.pathname}`;
  return (
    `A webhook sent to ${received} failed verification, but this server verifies signatures for ` +
    `${webhookUrl} (PUBLIC_BASE_URL + /v1/webhook). Register exactly ${webhookUrl} with the service, ` +
    `or set PUBLIC_BASE_URL=${verified.protocol}//${host} if that is the URL it is registered with.`
  );
}

/** Logs the hint once per distinct host, so a retrying service does not flood the log. */
export function createWebhookHostWarning(
  logger: MarketLogger,
): (host: string | undefined, webhookUrl: string) => void {
  const warned = new Set<string>();
  return (host, webhookUrl) => {
    const hint = webhookHostHint(host, webhookUrl);
    if (!hint || warned.has(host!)) return;
    warned.add(host!);
    logger.warn({ webhookUrl, receivedHost: host }, hint);
  };
}

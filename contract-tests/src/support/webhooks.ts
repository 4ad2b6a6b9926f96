/**
 * Sending webhooks to the market as the service would (WIRE §4), or with one deliberate defect.
 * Signatures are made with the service's key for the webhook URL as registered; the request goes to
 * wherever the market is reachable (the same URL when certifying).
 */
import { expect2xx, expectJsonObject, fail } from '../expect.js';
import type { HttpExchange } from '../http.js';
import type { CheckContext } from '../types.js';
import { routeUrl } from './routes.js';

export interface WebhookSendOptions {
  eventId?: string;
  /** Seconds the `X-Event-Timestamp` lies in the past (negative: the future). Default 0. */
  ageSeconds?: number;
  /** Sign and send this `X-Event-Timestamp` text instead (malformed encodings). */
  rawTimestamp?: string;
  /** Sign these bytes instead of the body that is sent. */
  signBody?: string | Uint8Array;
  /** Sign for this URL instead of the registered one. */
  signUrl?: string;
  /** Sign with this event ID, send `eventId` in the header. */
  signEventId?: string;
  signingKey?: string | Uint8Array;
  /** Replace or add headers after signing. */
  headers?: Record<string, string>;
  /** Remove these headers after signing (case-insensitive names). */
  dropHeaders?: string[];
  /** Send with this `Host` header, as a reverse proxy in front of the market does. */
  host?: string;
  /** Send every header name in this case (HTTP names are case-insensitive; an HTTP/2 hop lowers them). */
  nameCase?: 'upper' | 'lower';
}

export interface SentWebhook {
  exchange: HttpExchange;
  eventId: string;
}

export function statusEvent(orderId: string, status: string): string {
  return JSON.stringify({ type: 'BNPL_ORDER_STATUS_UPDATED', order_id: orderId, order_status: status });
}

export async function sendWebhook(
  ctx: CheckContext,
  body: string | Uint8Array,
  options: WebhookSendOptions = {},
): Promise<SentWebhook> {
  const eventId = options.eventId ?? ctx.unique('evt');
  const signed = await ctx.sandbox.signWebhook({
    url: options.signUrl ?? ctx.webhookUrl,
    body: options.signBody ?? body,
    eventId: options.signEventId ?? eventId,
    timestamp: new Date(Date.now() - (options.ageSeconds ?? 0) * 1000),
    ...(options.rawTimestamp !== undefined && { rawTimestamp: options.rawTimestamp }),
    ...(options.signingKey !== undefined && { signingKey: options.signingKey }),
  });
  const drop = new Set((options.dropHeaders ?? []).map((h) => h.toLowerCase()));
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(signed.headers)) {
    if (!drop.has(name.toLowerCase())) headers[name] = value;
  }
  if (options.signEventId !== undefined) headers['X-Event-Id'] = eventId;
  for (const [name, value] of Object.entries(options.headers ?? {})) {
    for (const existing of Object.keys(headers))
      if (existing.toLowerCase() === name.toLowerCase()) delete headers[existing];
    headers[name] = value;
  }
  const named =
    options.nameCase === undefined
      ? headers
      : Object.fromEntries(
          Object.entries(headers).map(([name, value]) => [
            options.nameCase === 'upper' ? name.toUpperCase() : name.toLowerCase(),
            value,
          ]),
        );
  const exchange = await ctx.http.send(routeUrl(ctx, 'receiveWebhook'), {
    method: 'POST',
    headers: named,
    body,
    ...(options.host !== undefined && { host: options.host }),
  });
  return { exchange, eventId };
}

/** Sends a correctly signed event and insists it is acknowledged (WIRE §4: 200 `{"received":true}`). */
export async function deliver(
  ctx: CheckContext,
  body: string,
  what: string,
  options: WebhookSendOptions = {},
) {
  const sent = await sendWebhook(ctx, body, options);
  expect2xx(sent.exchange, `for a correctly signed webhook (${what})`, 'WIRE §4');
  return sent;
}

/** WIRE §4: `200 {"received":true}` for a processed event, with `"duplicate":true` for a repeat. */
export function expectAck(exchange: HttpExchange, duplicate: boolean, what: string): void {
  const body = expectJsonObject(exchange, `acknowledging ${what}`, 'WIRE §4');
  if (exchange.status === 200 && body.received === true && (body.duplicate === true) === duplicate) return;
  fail({
    expected: `200 {"received":true${duplicate ? ',"duplicate":true' : ''}} for ${what}`,
    exchange,
    spec: 'WIRE §4',
  });
}

/**
 * Webhooks the service's way: signing a delivery with the service's key (checks send their own), the
 * sandbox's record of its deliveries, and waiting (bounded) until the market has answered one.
 */
import { ed25519Sign, pollUntil, type SignedWebhook, signWebhook } from '@bnpl-kit/core/testing';
import { base64UrlEncode, parseSigningKey, webhookBodyDigest, webhookMessage } from '@bnpl-kit/core/wire';
import type { ContractSandbox, DeliveryView, SignWebhookInput } from './driver.js';
import type { SandboxClient } from './sandbox-client.js';
import { answered, deliveryView, recordsIn } from './views.js';

export type WebhookDeliveries = Pick<
  ContractSandbox,
  'signWebhook' | 'deliveries' | 'awaitStatusDelivery' | 'replay'
>;

export interface WebhookDeliveryOptions {
  organizationId: string;
  signingKey: string | Uint8Array;
  timeoutMs: number;
}

export function webhookDeliveries(client: SandboxClient, options: WebhookDeliveryOptions): WebhookDeliveries {
  const { timeoutMs } = options;

  /** Deliveries of this organisation only: one sandbox may serve several markets. */
  async function listDeliveries(filter: Record<string, string>): Promise<DeliveryView[]> {
    const query = new URLSearchParams({ ...filter, organization_id: options.organizationId });
    const json = await client.admin('GET', `/sandbox/webhooks/deliveries?${query}`);
    return recordsIn(json, 'deliveries').map(deliveryView);
  }

  /** Core's signer insists on a well-formed timestamp; this one signs whatever text it is given. */
  async function signRaw(input: SignWebhookInput, timestamp: string): Promise<SignedWebhook> {
    const body =
      typeof input.body === 'string' ? new TextEncoder().encode(input.body) : new Uint8Array(input.body);
    const eventId = input.eventId ?? `evt_${crypto.randomUUID()}`;
    const message = webhookMessage({
      method: 'POST',
      url: input.url,
      eventId,
      timestamp,
      bodyDigest: await webhookBodyDigest(body),
    });
    const seed = parseSigningKey(input.signingKey ?? options.signingKey);
    const signature = await ed25519Sign(seed, new TextEncoder().encode(message));
    return {
      headers: {
        'Content-Type': 'application/json',
        Accept: 'application/json',
        Signature: base64UrlEncode(signature),
        'X-Signature-Algorithm': 'EdDSA',
        'X-Event-Id': eventId,
        'X-Event-Timestamp': timestamp,
      },
      body,
      message,
    };
  }

  const deliveryPath = (id: string) => `/sandbox/webhooks/deliveries/${encodeURIComponent(id)}`;

  return {
    async signWebhook(input: SignWebhookInput): Promise<SignedWebhook> {
      if (input.rawTimestamp !== undefined) return signRaw(input, input.rawTimestamp);
      return signWebhook({
        url: input.url,
        body: input.body,
        signingKey: input.signingKey ?? options.signingKey,
        ...(input.eventId !== undefined && { eventId: input.eventId }),
        ...(input.timestamp !== undefined && { timestamp: input.timestamp }),
      });
    },
    async deliveries(filter) {
      // Filtered by order at the sandbox too: this organisation's deliveries grow check by check.
      const all = await listDeliveries({
        ...(filter.eventId && { event_id: filter.eventId }),
        ...(filter.eventType && { event_type: filter.eventType }),
        ...(filter.orderId && { order_id: filter.orderId }),
      });
      return all.filter((d) => filter.orderId === undefined || d.payload.order_id === filter.orderId);
    },
    awaitStatusDelivery(orderId, status) {
      return pollUntil(
        async () => {
          const found = await listDeliveries({ event_type: 'BNPL_ORDER_STATUS_UPDATED', order_id: orderId });
          return found.find(
            (d) => d.payload.order_id === orderId && d.payload.order_status === status && answered(d),
          );
        },
        {
          timeoutMs,
          what: `the sandbox's ${status} webhook for order ${orderId} to be answered by the market`,
        },
      );
    },
    async replay(deliveryId) {
      const copy = deliveryView(await client.admin('POST', `${deliveryPath(deliveryId)}/replay`, {}));
      return pollUntil(
        async () => {
          const current = deliveryView(await client.admin('GET', deliveryPath(copy.id)));
          return answered(current) ? current : undefined;
        },
        { timeoutMs, what: `the replay of delivery ${deliveryId} to be answered by the market` },
      );
    },
  };
}

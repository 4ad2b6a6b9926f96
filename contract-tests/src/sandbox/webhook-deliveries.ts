/**
 * Webhooks the service's way: signing a delivery with the service's key (checks send their own), the
 * sandbox's record of its deliveries, and waiting (bounded) until the market has answered one.
 */
import { pollUntil, type SignedWebhook, signWebhook } from '@bnpl-kit/core/testing';
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

  const deliveryPath = (id: string) => `/sandbox/webhooks/deliveries/${encodeURIComponent(id)}`;

  return {
    signWebhook(input: SignWebhookInput): Promise<SignedWebhook> {
      return signWebhook({
        url: input.url,
        body: input.body,
        signingKey: input.signingKey ?? options.signingKey,
        ...(input.eventId !== undefined && { eventId: input.eventId }),
        ...(input.timestamp !== undefined && { timestamp: input.timestamp }),
      });
    },
    async deliveries(filter) {
      const all = await listDeliveries({
        ...(filter.eventId && { event_id: filter.eventId }),
        ...(filter.eventType && { event_type: filter.eventType }),
      });
      return all.filter((d) => filter.orderId === undefined || d.payload.order_id === filter.orderId);
    },
    awaitStatusDelivery(orderId, status) {
      return pollUntil(
        async () => {
          const found = await listDeliveries({ event_type: 'BNPL_ORDER_STATUS_UPDATED' });
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

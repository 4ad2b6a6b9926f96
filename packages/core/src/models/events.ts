/** Webhook events (WIRE §4): four known `type`s plus an unknown fallback that is acknowledged. */
import { z } from 'zod';
import { KitError } from '../errors.js';
import { orderStatusSchema } from './status.js';
import { field, parseWire, wireObject } from './wire.js';

export const EVENT_TYPES = {
  orderStatusUpdated: 'BNPL_ORDER_STATUS_UPDATED',
  offerTransactionStatusUpdated: 'OFFER_TRANSACTION_STATUS_UPDATED',
  disputeStatusUpdated: 'OFFER_TRANSACTION_DISPUTE_STATUS_UPDATED',
  disbursementRequirementUpdated: 'BNPL_DISBURSEMENT_REQUIREMENT_STATUS_UPDATED',
} as const;

const id = z.string().min(1).max(255);

const orderStatusUpdatedCodec = wireObject({
  type: field('type', z.literal(EVENT_TYPES.orderStatusUpdated)),
  orderId: field('order_id', id),
  orderStatus: field('order_status', orderStatusSchema),
});

const transactionFields = {
  transactionId: field('transaction_id', id),
  credifyId: field('credify_id', id),
  transactionStatus: field('transaction_status', z.string().min(1).max(64)),
  offerCode: field('offer_code', z.string().min(1).max(255)),
};

const offerTransactionStatusUpdatedCodec = wireObject({
  type: field('type', z.literal(EVENT_TYPES.offerTransactionStatusUpdated)),
  ...transactionFields,
});

const disputeStatusUpdatedCodec = wireObject({
  type: field('type', z.literal(EVENT_TYPES.disputeStatusUpdated)),
  ...transactionFields,
});

const disbursementRequirementUpdatedCodec = wireObject({
  type: field('type', z.literal(EVENT_TYPES.disbursementRequirementUpdated)),
  orderId: field('order_id', id),
  isFulfilled: field('is_fulfilled', z.boolean()),
});

export type OrderStatusUpdatedEvent = z.output<typeof orderStatusUpdatedCodec.schema>;
export type OfferTransactionStatusUpdatedEvent = z.output<typeof offerTransactionStatusUpdatedCodec.schema>;
export type DisputeStatusUpdatedEvent = z.output<typeof disputeStatusUpdatedCodec.schema>;
export type DisbursementRequirementUpdatedEvent = z.output<typeof disbursementRequirementUpdatedCodec.schema>;
export interface UnknownEvent {
  type: string;
  unknown: true;
  payload: Record<string, unknown>;
}

export type KnownWebhookEvent =
  | OrderStatusUpdatedEvent
  | OfferTransactionStatusUpdatedEvent
  | DisputeStatusUpdatedEvent
  | DisbursementRequirementUpdatedEvent;
export type WebhookEvent = KnownWebhookEvent | UnknownEvent;

const codecs = {
  [EVENT_TYPES.orderStatusUpdated]: orderStatusUpdatedCodec,
  [EVENT_TYPES.offerTransactionStatusUpdated]: offerTransactionStatusUpdatedCodec,
  [EVENT_TYPES.disputeStatusUpdated]: disputeStatusUpdatedCodec,
  [EVENT_TYPES.disbursementRequirementUpdated]: disbursementRequirementUpdatedCodec,
} as const;

export function isUnknownEvent(event: WebhookEvent): event is UnknownEvent {
  return 'unknown' in event && event.unknown === true;
}

/** Parses an already-verified webhook body (JSON text or bytes). Invalid JSON or shape → 400. */
export function parseWebhookEvent(body: string | Uint8Array): WebhookEvent {
  const text = typeof body === 'string' ? body : new TextDecoder().decode(body);
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new KitError('invalid_json', 'Webhook body is not valid JSON');
  }
  if (typeof json !== 'object' || json === null || Array.isArray(json)) {
    throw new KitError('validation_failed', 'Webhook body must be a JSON object');
  }
  const payload = json as Record<string, unknown>;
  if (typeof payload.type !== 'string' || payload.type.length === 0) {
    throw new KitError('validation_failed', 'Webhook body has no "type"', {
      errors: [{ path: 'type', message: 'required string' }],
    });
  }
  const codec = codecs[payload.type as keyof typeof codecs];
  if (!codec) return { type: payload.type, unknown: true, payload };
  return parseWire(codec.schema, payload, `${payload.type} event`) as KnownWebhookEvent;
}

export function encodeWebhookEvent(event: KnownWebhookEvent): Record<string, unknown> {
  const codec = codecs[event.type] as { encode(model: unknown): Record<string, unknown> };
  return codec.encode(event);
}

/**
 * Webhook events (WIRE §4): four known `type`s plus an unknown fallback that is acknowledged.
 * Read tolerantly (WIRE §6): identifiers may arrive as strings or integers and are kept as strings,
 * and an order status outside the six makes the event "unknown" (acknowledged, recorded, handed to
 * `onUnknownEvent`) rather than a 400 the service would retry forever.
 */
import * as z from 'zod';
import { KitError } from '../errors.js';
import { parseJsonBytes } from '../util/strict-json.js';
import { knownOrderStatus, type OrderStatus, orderStatusSchema } from './status.js';
import { identifierText, safeText, unstorableReason } from './text.js';
import { field, parseWire, wireObject } from './wire.js';

/** The longest event `type` the receiver records (an unknown type is stored with its event ID). */
export const MAX_EVENT_TYPE_LENGTH = 255;

export const EVENT_TYPES = {
  orderStatusUpdated: 'BNPL_ORDER_STATUS_UPDATED',
  offerTransactionStatusUpdated: 'OFFER_TRANSACTION_STATUS_UPDATED',
  disputeStatusUpdated: 'OFFER_TRANSACTION_DISPUTE_STATUS_UPDATED',
  disbursementRequirementUpdated: 'BNPL_DISBURSEMENT_REQUIREMENT_STATUS_UPDATED',
} as const;

// Decoded IDs are stored and looked up: text PostgreSQL cannot keep is a 400 here, never a 500
// (which the service would retry forever).
const id = z.union([
  identifierText(),
  // A service that numbers its records sends numbers; they are kept as their decimal text.
  z
    .int()
    .nonnegative()
    .transform((n) => String(n)),
]);

export const orderStatusUpdatedCodec = wireObject({
  type: field('type', z.literal(EVENT_TYPES.orderStatusUpdated)),
  orderId: field('order_id', id),
  orderStatus: field('order_status', orderStatusSchema),
});

const transactionFields = {
  transactionId: field('transaction_id', id),
  credifyId: field('credify_id', id),
  transactionStatus: field('transaction_status', safeText(64)),
  offerCode: field('offer_code', safeText()),
};

export const offerTransactionStatusUpdatedCodec = wireObject({
  type: field('type', z.literal(EVENT_TYPES.offerTransactionStatusUpdated)),
  ...transactionFields,
});

export const disputeStatusUpdatedCodec = wireObject({
  type: field('type', z.literal(EVENT_TYPES.disputeStatusUpdated)),
  ...transactionFields,
});

export const disbursementRequirementUpdatedCodec = wireObject({
  type: field('type', z.literal(EVENT_TYPES.disbursementRequirementUpdated)),
  orderId: field('order_id', id),
  isFulfilled: field('is_fulfilled', z.boolean()),
});

/**
 * The same event with `order_status` read as any non-empty text, to tell unknown statuses apart. It
 * is also what the OpenAPI documents publish (WIRE §6: a receiver must accept unknown statuses).
 */
export const orderStatusUpdatedTolerantCodec = wireObject({
  type: field('type', z.literal(EVENT_TYPES.orderStatusUpdated)),
  orderId: field('order_id', id),
  orderStatus: field('order_status', z.string().min(1).max(64)),
});

export type OrderStatusUpdatedEvent = z.output<typeof orderStatusUpdatedCodec.schema>;
export type OfferTransactionStatusUpdatedEvent = z.output<typeof offerTransactionStatusUpdatedCodec.schema>;
export type DisputeStatusUpdatedEvent = z.output<typeof disputeStatusUpdatedCodec.schema>;
export type DisbursementRequirementUpdatedEvent = z.output<typeof disbursementRequirementUpdatedCodec.schema>;
export interface UnknownEvent {
  type: string;
  unknown: true;
  /**
   * Why the kit could not act on it: a `type` it does not know, or a known type carrying an
   * `order_status` outside the six (then `orderStatus` is the raw value and `orderId` the order).
   */
  reason: 'unknown_type' | 'unknown_order_status';
  orderId?: string;
  orderStatus?: string;
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
  // The same strict decoder as every other body: bytes that are not UTF-8 are a 400, never U+FFFD.
  const json = parseJsonBytes(body, 'Webhook body');
  if (typeof json !== 'object' || json === null || Array.isArray(json)) {
    throw new KitError('validation_failed', 'Webhook body must be a JSON object');
  }
  const payload = json as Record<string, unknown>;
  if (typeof payload.type !== 'string' || payload.type.length === 0) {
    throw new KitError('validation_failed', 'Webhook body has no "type"', {
      errors: [{ path: 'type', message: 'required string' }],
    });
  }
  // Recorded with the event ID even when unknown, so it must be storable like any ID.
  const typeProblem =
    payload.type.length > MAX_EVENT_TYPE_LENGTH
      ? `must be at most ${MAX_EVENT_TYPE_LENGTH} characters`
      : unstorableReason(payload.type);
  if (typeProblem !== undefined) {
    throw new KitError('validation_failed', `Webhook body "type" ${typeProblem}`, {
      errors: [{ path: 'type', message: typeProblem }],
    });
  }
  if (payload.type === EVENT_TYPES.orderStatusUpdated) return parseOrderStatusUpdated(payload);
  const codec = codecs[payload.type as keyof typeof codecs];
  if (!codec) return { type: payload.type, unknown: true, reason: 'unknown_type', payload };
  return parseWire(codec.schema, payload, `${payload.type} event`) as KnownWebhookEvent;
}

function parseOrderStatusUpdated(payload: Record<string, unknown>): WebhookEvent {
  const event = parseWire(orderStatusUpdatedTolerantCodec.schema, payload, `${payload.type} event`);
  const status: OrderStatus | undefined = knownOrderStatus(event.orderStatus);
  if (status !== undefined) return { ...event, orderStatus: status };
  return {
    type: event.type,
    unknown: true,
    reason: 'unknown_order_status',
    orderId: event.orderId,
    orderStatus: event.orderStatus,
    payload,
  };
}

export function encodeWebhookEvent(event: KnownWebhookEvent): Record<string, unknown> {
  const codec = codecs[event.type] as { encode(model: unknown): Record<string, unknown> };
  return codec.encode(event);
}

/**
 * What the market handler needs from persistence. `@bnpl-kit/store` implements it on Postgres and
 * PGlite; `createMemoryStore()` implements it for tests. Every webhook effect runs inside
 * `transaction`, so the processed event ID and the status change commit together or not at all.
 */
import type { Amount } from '../models/money.js';
import type { OrderLine } from '../models/order-line.js';
import type { OrderStatus } from '../models/status.js';

/** An order as the market inserts it. */
export interface NewStoredOrder {
  /** The service-side order ID (the specification's `id` / `order_id`). */
  id: string;
  referenceId: string;
  totalAmount: Amount;
  orderLines: OrderLine[];
  status: OrderStatus;
  /** Fingerprint of the create request, so a repeated `reference_id` with other content is a 409. */
  requestFingerprint: string;
}

/** An order as the store holds it: what was inserted, plus its timestamps. */
export interface StoredOrder extends NewStoredOrder {
  createdAt: Date;
  updatedAt: Date;
}

export interface StatusChange {
  orderId: string;
  from: OrderStatus;
  to: OrderStatus;
  /** What caused it: `webhook:<eventId>`, `reconcile`, `cancel`, `disburse`… */
  source: string;
}

/**
 * A verified webhook's whole database effect, for stores that can apply it in one statement
 * (`applyWebhookEvent`): record the event ID; unless it was already recorded, lock the named order
 * and, for a status update, move it to `to` when its current status is one of `allowedFrom` (the
 * forward moves the kit computed from the state machine), writing the history row with it.
 */
export interface WebhookEventEffect {
  eventId: string;
  eventType: string;
  /** The order the event names, if any. */
  orderId: string | undefined;
  statusUpdate: { to: OrderStatus; allowedFrom: readonly OrderStatus[]; source: string } | undefined;
  /** Return the whole order (a hook will see it), not just its previous status. */
  withOrder: boolean;
}

export interface AppliedWebhookEvent {
  /** The event ID was already recorded: nothing else was done. */
  duplicate: boolean;
  /** The order's status before this event; undefined when no stored order is named (or duplicate). */
  previousStatus: OrderStatus | undefined;
  /** With `withOrder`: the order as it is now, locked until the transaction ends. */
  order: StoredOrder | undefined;
}

/** Operations available inside one transaction. */
export interface MarketTransaction {
  /** Reads an order and locks it until the transaction ends (SELECT … FOR UPDATE). */
  getOrderForUpdate(id: string): Promise<StoredOrder | undefined>;
  setOrderStatus(change: StatusChange): Promise<void>;
  /**
   * Records a webhook event ID as processed. Returns false when it already was (the caller then
   * answers `duplicate: true`). Concurrent deliveries of one ID: the second waits for the first
   * transaction and then sees it as processed.
   */
  markEventProcessed(eventId: string, eventType: string): Promise<boolean>;
  /**
   * Optional fast path: `markEventProcessed`, `getOrderForUpdate` and `setOrderStatus` of one
   * webhook as one statement (one round trip instead of three). Same semantics as the three calls.
   */
  applyWebhookEvent?(effect: WebhookEventEffect): Promise<AppliedWebhookEvent>;
}

export interface MarketStore<Tx extends MarketTransaction = MarketTransaction> {
  /**
   * `false` for a store that forgets everything on restart (the memory store of
   * `@bnpl-kit/core/testing`): `createMarket` refuses it in production.
   */
  readonly durable?: boolean;
  findOrderById(id: string): Promise<StoredOrder | undefined>;
  findOrderByReferenceId(referenceId: string): Promise<StoredOrder | undefined>;
  /**
   * Inserts an order. If another order already holds the reference ID, inserts nothing and returns
   * the existing one with `created: false` (two concurrent creates cannot both win).
   */
  insertOrder(order: NewStoredOrder): Promise<{ order: StoredOrder; created: boolean }>;
  transaction<T>(work: (tx: Tx) => Promise<T>): Promise<T>;
  /**
   * Optional: `MarketTransaction.applyWebhookEvent` as a transaction of its own (a single statement
   * is atomic), which the kit uses when no hook has to run inside the webhook's transaction.
   */
  applyWebhookEvent?(effect: WebhookEventEffect): Promise<AppliedWebhookEvent>;
}

/** Orders, their status history and processed webhook events: the kit's `MarketStore` surface. */
import {
  type AppliedWebhookEvent,
  KitError,
  type NewStoredOrder,
  type OrderStatus,
  type StatusChange,
  type StoredOrder,
  type WebhookEventEffect,
} from '@bnpl-kit/core';
import { prepared } from '../executor/prepared.js';
import type { Queryable } from '../executor/types.js';
import type { OrderStatusHistoryEntry } from '../records.js';
import { sqlState, UNIQUE_VIOLATION } from './pg-errors.js';

interface OrderRow {
  id: string;
  reference_id: string;
  total_value: string;
  currency: string;
  order_lines: StoredOrder['orderLines'];
  status: OrderStatus;
  request_fingerprint: string;
  created_at: Date;
  updated_at: Date;
}

// `total_value::text`: both drivers return numeric as a string today; the cast keeps it that way.
const ORDER_COLUMNS = `id, reference_id, total_value::text AS total_value, currency, order_lines, status,
  request_fingerprint, created_at, updated_at`;

function toOrder(row: OrderRow): StoredOrder {
  return {
    id: row.id,
    referenceId: row.reference_id,
    totalAmount: { value: row.total_value, currency: row.currency as StoredOrder['totalAmount']['currency'] },
    orderLines: row.order_lines,
    status: row.status,
    requestFingerprint: row.request_fingerprint,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

export interface OrderReads {
  findOrderById(id: string): Promise<StoredOrder | undefined>;
  findOrderByReferenceId(referenceId: string): Promise<StoredOrder | undefined>;
  /**
   * Inserts an order and its first history row. If the reference ID is taken, inserts nothing and
   * returns the existing order with `created: false`; a concurrent insert of the same reference ID
   * waits on the unique index, so exactly one caller gets `created: true`.
   */
  insertOrder(order: NewStoredOrder): Promise<{ order: StoredOrder; created: boolean }>;
  /** Oldest first, starting with the status the order was created with. */
  listOrderStatusHistory(orderId: string): Promise<OrderStatusHistoryEntry[]>;
  isEventProcessed(eventId: string): Promise<boolean>;
  /**
   * A webhook's whole effect as one statement (`MarketTransaction.applyWebhookEvent`): outside a
   * transaction it is atomic on its own, inside one it holds the order's row lock until COMMIT.
   */
  applyWebhookEvent(effect: WebhookEventEffect): Promise<AppliedWebhookEvent>;
}

/** Operations that only make sense inside a transaction (`MarketTransaction`). */
export interface OrderTransactionOps {
  getOrderForUpdate(id: string): Promise<StoredOrder | undefined>;
  setOrderStatus(change: StatusChange): Promise<void>;
  markEventProcessed(eventId: string, eventType: string): Promise<boolean>;
}

/*
 * One statement for a webhook: record the event ID (ON CONFLICT DO NOTHING waits for a concurrent
 * holder of the same ID and then yields nothing), and only if that inserted a row, lock the order
 * (FOR UPDATE reads its newest committed version under READ COMMITTED), move it to $4 when its
 * status is one of $5, and write the history row. The lock is taken only because the update needs
 * the prior status (for the guard and the history row), the same row the UPDATE would lock anyway.
 * `current` reads the status alone unless a hook will see the order.
 */
function applyWebhookSql(columns: string, result: string): string {
  return `WITH event AS (
    INSERT INTO bnpl_processed_events (event_id, type) VALUES ($1, $2)
    ON CONFLICT (event_id) DO NOTHING RETURNING event_id
  ), current AS (
    SELECT ${columns} FROM bnpl_orders
     WHERE id = $3 AND EXISTS (SELECT 1 FROM event)
     FOR UPDATE
  ), updated AS (
    UPDATE bnpl_orders o SET status = $4, updated_at = now()
      FROM current c
     WHERE o.id = c.id AND c.status = ANY($5::text[])
    RETURNING o.id, o.updated_at
  ), history AS (
    INSERT INTO bnpl_order_status_history (order_id, from_status, to_status, source)
    SELECT c.id, c.status, $4::text, $6 FROM current c JOIN updated u ON u.id = c.id
  )
  SELECT EXISTS (SELECT 1 FROM event) AS recorded, ${result}, u.updated_at AS new_updated_at
    FROM (SELECT 1) AS one LEFT JOIN current c ON true LEFT JOIN updated u ON true`;
}

const APPLY_WEBHOOK_STATUS_ONLY = prepared('bnpl_apply_webhook', applyWebhookSql('id, status', 'c.status'));
/*
 * With a hook, the order comes back as one JSON text column, parsed only if the hook reads
 * `order`: nine typed columns cost the driver a field description, a parser each, two dates and
 * the order lines' JSON on every webhook, although most hooks never look (bench/profile-webhook.ts).
 */
const APPLY_WEBHOOK_WITH_ORDER = prepared(
  'bnpl_apply_webhook_order_json',
  applyWebhookSql(ORDER_COLUMNS, 'c.status, row_to_json(c)::text AS order_json'),
);

interface AppliedRow {
  recorded: boolean;
  status: OrderStatus | null;
  order_json?: string | null;
  new_updated_at: Date | null;
}

/** An order row as `row_to_json` writes it: timestamps as ISO 8601 text with their offset. */
type OrderJson = Omit<OrderRow, 'created_at' | 'updated_at'> & { created_at: string; updated_at: string };

/** An order from its row as one JSON text column (`row_to_json(…)::text`). */
function orderFromJson(json: string): StoredOrder {
  const row = JSON.parse(json) as OrderJson;
  return toOrder({ ...row, created_at: new Date(row.created_at), updated_at: new Date(row.updated_at) });
}

/**
 * A fresh event's result with the order as it is after the event, built from the statement's JSON
 * on first read. `order` is an own, enumerable property like the others (spread and JSON see it),
 * an accessor whose two functions are shared by every result: a getter made per result (an object
 * literal's `get order()`) turns each result into a dictionary-mode object, one more per webhook.
 */
class AppliedWithLazyOrder implements AppliedWebhookEvent {
  declare duplicate: false;
  declare previousStatus: OrderStatus;
  declare order: StoredOrder | undefined;
  #json: string;
  #moved: { to: OrderStatus; at: Date } | undefined;
  #order: StoredOrder | undefined = undefined;

  constructor(previousStatus: OrderStatus, json: string, moved: { to: OrderStatus; at: Date } | undefined) {
    this.#json = json;
    this.#moved = moved;
    // Assigned here, in this order: the keys read as the plain results' do.
    this.duplicate = false;
    this.previousStatus = previousStatus;
    Object.defineProperty(this, 'order', AppliedWithLazyOrder.#ORDER);
  }

  static readonly #ORDER: PropertyDescriptor = {
    get(this: AppliedWithLazyOrder) {
      if (this.#order !== undefined) return this.#order;
      const order = orderFromJson(this.#json);
      if (this.#moved !== undefined) {
        order.status = this.#moved.to;
        order.updatedAt = this.#moved.at;
      }
      this.#order = order;
      return order;
    },
    enumerable: true,
    configurable: true,
  };
}

async function applyWebhookEvent(q: Queryable, effect: WebhookEventEffect): Promise<AppliedWebhookEvent> {
  const update = effect.statusUpdate;
  const { rows } = await q.query<AppliedRow>(
    effect.withOrder ? APPLY_WEBHOOK_WITH_ORDER : APPLY_WEBHOOK_STATUS_ONLY,
    [
      effect.eventId,
      effect.eventType,
      effect.orderId ?? null,
      update?.to ?? null,
      update?.allowedFrom ?? [],
      update?.source ?? null,
    ],
  );
  const row = rows[0];
  if (row === undefined || !row.recorded) {
    return { duplicate: true, previousStatus: undefined, order: undefined };
  }
  const previousStatus = row.status ?? undefined;
  if (!effect.withOrder || previousStatus === undefined || !row.order_json)
    return { duplicate: false, previousStatus, order: undefined };
  const moved =
    row.new_updated_at !== null && update !== undefined
      ? { to: update.to, at: row.new_updated_at }
      : undefined;
  return new AppliedWithLazyOrder(previousStatus, row.order_json, moved);
}

// Order creation looks its reference up, then inserts: both run on every order, so PostgreSQL
// parses and plans them once per connection.
const FIND_ORDER_BY_ID = prepared(
  'bnpl_find_order_by_id',
  `SELECT ${ORDER_COLUMNS} FROM bnpl_orders WHERE id = $1`,
);
/*
 * The lookup every order creation makes, which almost always finds nothing: one JSON text column
 * rather than nine typed ones, because the driver reads the statement's field description (and
 * sets up a parser per column) on every execution, rows or none (bench/profile-orders.ts).
 */
const FIND_ORDER_BY_REFERENCE = prepared(
  'bnpl_find_order_by_reference',
  `SELECT row_to_json(o)::text AS order_json
     FROM (SELECT ${ORDER_COLUMNS} FROM bnpl_orders WHERE reference_id = $1) o`,
);
/*
 * Returns only what the database decides (the timestamps, and the total as `numeric` stores it):
 * the rest is what was just sent, so reading the order lines' JSON back would decode again what
 * this process encoded a moment ago.
 */
const INSERT_ORDER = prepared(
  'bnpl_insert_order',
  `WITH inserted AS (
     INSERT INTO bnpl_orders (id, reference_id, total_value, currency, order_lines, status, request_fingerprint)
     VALUES ($1, $2, $3::numeric, $4, $5::jsonb, $6, $7)
     ON CONFLICT (reference_id) DO NOTHING
     RETURNING id, status, total_value::text AS total_value, created_at, updated_at
   ), history AS (
     INSERT INTO bnpl_order_status_history (order_id, from_status, to_status, source)
     SELECT id, NULL, status, 'create' FROM inserted
   )
   SELECT total_value, created_at, updated_at FROM inserted`,
);

type InsertedRow = Pick<OrderRow, 'total_value' | 'created_at' | 'updated_at'>;

async function findOne(q: Queryable, sql: string, value: string): Promise<StoredOrder | undefined> {
  const { rows } = await q.query<OrderRow>(sql, [value]);
  return rows[0] === undefined ? undefined : toOrder(rows[0]);
}

async function findByReference(q: Queryable, referenceId: string): Promise<StoredOrder | undefined> {
  const { rows } = await q.query<{ order_json: string }>(FIND_ORDER_BY_REFERENCE, [referenceId]);
  return rows[0] === undefined ? undefined : orderFromJson(rows[0].order_json);
}

export function orderReads(q: Queryable): OrderReads {
  return {
    findOrderById: (id) => findOne(q, FIND_ORDER_BY_ID, id),
    findOrderByReferenceId: (referenceId) => findByReference(q, referenceId),

    async insertOrder(order) {
      let inserted: InsertedRow | undefined;
      const orderLines = JSON.stringify(order.orderLines);
      try {
        // One statement, so the order and its first history row exist together or not at all even
        // outside a transaction.
        const { rows } = await q.query<InsertedRow>(INSERT_ORDER, [
          order.id,
          order.referenceId,
          order.totalAmount.value,
          order.totalAmount.currency,
          orderLines,
          order.status,
          order.requestFingerprint,
        ]);
        inserted = rows[0];
      } catch (err) {
        if (sqlState(err) !== UNIQUE_VIOLATION) throw err;
        // ON CONFLICT covers the reference ID only. Concurrent creates of one order carry the same
        // service order ID too (one idempotency key, one service order), and the loser of that race
        // can meet the winner's row in the primary key first: then it is the same order, stored.
        const existing = await findByReference(q, order.referenceId);
        if (existing?.id === order.id) return { order: existing, created: false };
        // The reference ID is free but the service ID is stored under another reference ID.
        throw new KitError('conflict', 'An order with this service order ID is already stored', {
          cause: err,
        });
      }
      if (inserted !== undefined) {
        const stored: StoredOrder = {
          id: order.id,
          referenceId: order.referenceId,
          totalAmount: { value: inserted.total_value, currency: order.totalAmount.currency },
          // A copy of what was stored, as a read gives (the caller keeps its own object).
          orderLines: JSON.parse(orderLines) as StoredOrder['orderLines'],
          status: order.status,
          requestFingerprint: order.requestFingerprint,
          createdAt: inserted.created_at,
          updatedAt: inserted.updated_at,
        };
        return { order: stored, created: true };
      }
      // READ COMMITTED: this new statement sees the row of the transaction that won the conflict.
      const existing = await findByReference(q, order.referenceId);
      if (existing === undefined) {
        throw new KitError('internal', 'Order reference conflicted but the existing order is not visible');
      }
      return { order: existing, created: false };
    },

    async listOrderStatusHistory(orderId) {
      const { rows } = await q.query<{
        order_id: string;
        from_status: OrderStatus | null;
        to_status: OrderStatus;
        source: string;
        changed_at: Date;
      }>(
        `SELECT order_id, from_status, to_status, source, changed_at
           FROM bnpl_order_status_history WHERE order_id = $1 ORDER BY id`,
        [orderId],
      );
      return rows.map((r) => ({
        orderId: r.order_id,
        from: r.from_status ?? undefined,
        to: r.to_status,
        source: r.source,
        changedAt: r.changed_at,
      }));
    },

    async isEventProcessed(eventId) {
      const { rows } = await q.query('SELECT 1 FROM bnpl_processed_events WHERE event_id = $1', [eventId]);
      return rows.length > 0;
    },

    applyWebhookEvent: (effect) => applyWebhookEvent(q, effect),
  };
}

export function orderTransactionOps(q: Queryable): OrderTransactionOps {
  return {
    async getOrderForUpdate(id) {
      const { rows } = await q.query<OrderRow>(
        `SELECT ${ORDER_COLUMNS} FROM bnpl_orders WHERE id = $1 FOR UPDATE`,
        [id],
      );
      return rows[0] === undefined ? undefined : toOrder(rows[0]);
    },

    async setOrderStatus(change) {
      // `status = from` guards against a caller that did not read the order FOR UPDATE first.
      const { rowCount } = await q.query(
        `WITH updated AS (
           UPDATE bnpl_orders SET status = $3, updated_at = now()
            WHERE id = $1 AND status = $2
           RETURNING id
         )
         INSERT INTO bnpl_order_status_history (order_id, from_status, to_status, source)
         SELECT id, $2, $3, $4 FROM updated`,
        [change.orderId, change.from, change.to, change.source],
      );
      if (rowCount > 0) return;
      const current = await findOne(q, FIND_ORDER_BY_ID, change.orderId);
      if (current === undefined)
        throw new KitError('order_not_found', `Order ${change.orderId} is not stored`);
      throw new KitError(
        'conflict',
        `Order ${change.orderId} is ${current.status}, not ${change.from}; read it with getOrderForUpdate first`,
      );
    },

    async markEventProcessed(eventId, eventType) {
      // A concurrent transaction holding the same ID makes this wait on the primary key; when it
      // commits, DO NOTHING applies and no row comes back.
      const { rows } = await q.query(
        `INSERT INTO bnpl_processed_events (event_id, type) VALUES ($1, $2)
         ON CONFLICT (event_id) DO NOTHING RETURNING event_id`,
        [eventId, eventType],
      );
      return rows.length === 1;
    },
  };
}

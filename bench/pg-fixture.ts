/**
 * The PostgreSQL side of the webhook benchmarks: a schema of its own (created, migrated by the
 * store, dropped at the end), N seeded orders with as many old processed events and history rows
 * (the tables a market has after N orders), a pool of signed status updates with unique event IDs,
 * and a reset that puts exactly the rows a measurement touched back, so every candidate starts
 * from the same database whatever N is.
 */
import { randomBytes } from 'node:crypto';
import type { OrderStatus } from '@bnpl-kit/core';
import { orderLineFixture, signWebhook } from '@bnpl-kit/core/testing';
import { DEFAULT_TOLERANCE_SECONDS } from '@bnpl-kit/core/wire';
import { openStore } from '@bnpl-kit/store';
import pg from 'pg';

export const DATABASE_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
export const PUBLIC_BASE = 'https://market.example.com';
export const WEBHOOK_PATH = '/v1/webhook';
export const SIGNED_URL = `${PUBLIC_BASE}${WEBHOOK_PATH}`;

export interface SignedRequest {
  headers: Record<string, string>;
  body: Buffer;
  eventId: string;
  orderId: string;
}

export interface PgFixture {
  schema: string;
  orders: number;
  /** Grows the seeded data to `total` orders (and as many old events and history rows). */
  seed(total: number): Promise<void>;
  /** Undoes what the given requests did: their events, their history rows, their orders' status. */
  reset(requests: readonly SignedRequest[]): Promise<void>;
  query<R extends pg.QueryResultRow>(sql: string, params?: unknown[]): Promise<R[]>;
  close(): Promise<void>;
}

// As the store writes them: the OrderLine model (camelCase), not the wire shape; the seeded
// total (300,000) matches it.
const LINES = JSON.stringify([orderLineFixture()]);

export async function openPgFixture(): Promise<PgFixture> {
  const schema = `bnpl_bench_${randomBytes(5).toString('hex')}`;
  // The store creates the schema and applies its own migrations: the bench runs on the real tables.
  await (await openStore({ databaseUrl: DATABASE_URL, schema })).close();
  const pool = new pg.Pool({ connectionString: DATABASE_URL, max: 2, options: `-c search_path=${schema}` });
  const fixture: PgFixture = {
    schema,
    orders: 0,
    async seed(total) {
      if (total <= fixture.orders) return;
      const from = fixture.orders;
      await pool.query(
        `INSERT INTO bnpl_orders (id, reference_id, total_value, currency, order_lines, status, request_fingerprint)
         SELECT 'ord_' || g, 'ref_' || g, 300000, 'VND', $3::jsonb, 'PENDING', 'fp' FROM generate_series($1::int, $2::int - 1) g`,
        [from, total, LINES],
      );
      await pool.query(
        `INSERT INTO bnpl_order_status_history (order_id, from_status, to_status, source)
         SELECT 'ord_' || g, NULL, 'PENDING', 'create' FROM generate_series($1::int, $2::int - 1) g`,
        [from, total],
      );
      await pool.query(
        `INSERT INTO bnpl_processed_events (event_id, type)
         SELECT 'old_' || g, 'BNPL_ORDER_STATUS_UPDATED' FROM generate_series($1::int, $2::int - 1) g`,
        [from, total],
      );
      await pool.query('VACUUM ANALYZE bnpl_orders, bnpl_order_status_history, bnpl_processed_events');
      fixture.orders = total;
    },
    async reset(requests) {
      const events = requests.map((r) => r.eventId);
      const orders = [...new Set(requests.map((r) => r.orderId))];
      await pool.query('DELETE FROM bnpl_processed_events WHERE event_id = ANY($1::text[])', [events]);
      await pool.query(
        `DELETE FROM bnpl_order_status_history WHERE order_id = ANY($1::text[]) AND source <> 'create'`,
        [orders],
      );
      await pool.query(
        `UPDATE bnpl_orders SET status = 'PENDING' WHERE id = ANY($1::text[]) AND status <> 'PENDING'`,
        [orders],
      );
    },
    async query(sql, params) {
      return (await pool.query(sql, params)).rows;
    },
    async close() {
      await pool.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
      await pool.end();
    },
  };
  return fixture;
}

// Status updates along the state machine, so some move an order and some are late (no-ops).
const CYCLE: OrderStatus[] = ['APPROVED', 'DISBURSING', 'PAID', 'APPROVED'];

/**
 * `size` signed status updates with unique event IDs, spread over the first `orders` orders
 * (a multiplicative stride, so consecutive requests rarely name the same order).
 */
/** How far ahead of signing the signed timestamp is: the requests are accepted from 60 s before. */
const SIGNED_AHEAD_MS = 240_000;
/** The receiver's time window (WIRE §4): a request older than this is refused. */
const WINDOW_MS = DEFAULT_TOLERANCE_SECONDS * 1000;

/**
 * `signStatusUpdates` for a run longer than one time window (webhook-pg with every candidate takes
 * about 10 min on a slow machine, and its last rounds were refused with 401 until this re-signed):
 * `current(ms)` re-signs the same events (same IDs, orders and statuses, so the fixture's reset
 * still matches them) when the ones it has would not stay valid for the next `ms`.
 */
export class SignedPool {
  #requests: SignedRequest[] = [];
  #validUntil = 0;
  constructor(
    private readonly seed: Uint8Array,
    private readonly size: number,
    private readonly orders: number,
  ) {}
  async current(ms: number): Promise<SignedRequest[]> {
    if (Date.now() + ms > this.#validUntil) {
      const timestamp = new Date(Date.now() + SIGNED_AHEAD_MS);
      this.#requests = await signStatusUpdates(this.seed, this.size, this.orders, 'evt', timestamp);
      this.#validUntil = timestamp.getTime() + WINDOW_MS;
    }
    return this.#requests;
  }
}

export async function signStatusUpdates(
  seed: Uint8Array,
  size: number,
  orders: number,
  prefix = 'evt',
  // Valid from now - 60 s to now + 540 s (the protocol's ±300 s window); see `SignedPool` for longer runs.
  timestamp = new Date(Date.now() + SIGNED_AHEAD_MS),
): Promise<SignedRequest[]> {
  const pool: SignedRequest[] = new Array(size);
  const batch = 2_000;
  for (let start = 0; start < size; start += batch) {
    const signed = await Promise.all(
      Array.from({ length: Math.min(batch, size - start) }, async (_, k) => {
        const i = start + k;
        const orderId = `ord_${(i * 7919) % orders}`;
        const eventId = `${prefix}_${i}`;
        const status = CYCLE[Math.floor(i / orders) % CYCLE.length]!;
        const s = await signWebhook({
          url: SIGNED_URL,
          body: { type: 'BNPL_ORDER_STATUS_UPDATED', order_id: orderId, order_status: status },
          signingKey: seed,
          eventId,
          timestamp,
        });
        return { headers: s.headers, body: Buffer.from(s.body), eventId, orderId };
      }),
    );
    signed.forEach((s, k) => {
      pool[start + k] = s;
    });
  }
  return pool;
}

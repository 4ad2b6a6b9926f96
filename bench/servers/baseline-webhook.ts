/**
 * The minimal hand-written webhook receiver the kit is measured against: node:http, `pg`, the
 * protocol's checks done by hand (algorithm, time window, SHA-256 of the body, Ed25519 through
 * Web Crypto) and the least database work a correct receiver does: the event ID recorded and the
 * order's status moved forward, atomically. `tx` mode uses one transaction (BEGIN, INSERT … ON
 * CONFLICT DO NOTHING, guarded UPDATE, COMMIT); `cte` mode one statement doing both.
 * No history row, no logging, no routing: the floor, not a design to copy. By default on bare
 * node:http; behind Express, Koa or Hono (the same checks and statements as that framework's own
 * route) it is the floor of a market on that framework, which the kit's adapter is compared with too.
 *
 *   baseline-webhook.ts <databaseUrl> <schema> <publicKey base64url> <tx|cte> <signedUrl> [node|express|koa|hono]
 */
import { createHash } from 'node:crypto';
import type { OrderStatus } from '@bnpl-kit/core';
import { forwardSourcesOf } from '@bnpl-kit/core/wire';
import pg from 'pg';
import { serveForParent } from './child.js';
import { countRoundTrips } from './count-round-trips.js';
import { type Answer, type BaselineFramework, listenHandWritten } from './hand-written-route.js';

countRoundTrips(pg);

const [databaseUrl, schema, publicKey, mode, signedUrl, framework = 'node'] = process.argv.slice(2) as [
  string,
  string,
  string,
  'tx' | 'cte',
  string,
  BaselineFramework?,
];
/** The path part of the signed URL: the one route the receiver serves. */
const WEBHOOK_PATH = new URL(signedUrl).pathname;
const pool = new pg.Pool({ connectionString: databaseUrl, max: 10, options: `-c search_path=${schema}` });
const key = await crypto.subtle.importKey('raw', Buffer.from(publicKey, 'base64url'), 'Ed25519', false, [
  'verify',
]);

const CTE = `WITH event AS (
    INSERT INTO bnpl_processed_events (event_id, type) VALUES ($1, $2)
    ON CONFLICT (event_id) DO NOTHING RETURNING event_id
  ), updated AS (
    UPDATE bnpl_orders SET status = $4, updated_at = now()
     WHERE id = $3 AND status = ANY($5::text[]) AND EXISTS (SELECT 1 FROM event)
  )
  SELECT count(*)::int AS n FROM event`;

async function record(eventId: string, type: string, orderId: string, status: OrderStatus): Promise<boolean> {
  const allowed = forwardSourcesOf(status);
  if (mode === 'cte') {
    const { rows } = await pool.query(CTE, [eventId, type, orderId, status, allowed]);
    return rows[0].n === 1;
  }
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    const inserted = await client.query(
      'INSERT INTO bnpl_processed_events (event_id, type) VALUES ($1, $2) ON CONFLICT (event_id) DO NOTHING',
      [eventId, type],
    );
    if (inserted.rowCount === 1) {
      await client.query(
        'UPDATE bnpl_orders SET status = $2, updated_at = now() WHERE id = $1 AND status = ANY($3::text[])',
        [orderId, status, allowed],
      );
    }
    await client.query('COMMIT');
    return inserted.rowCount === 1;
  } catch (err) {
    await client.query('ROLLBACK');
    throw err;
  } finally {
    client.release();
  }
}

/** The protocol's checks and the database effect: status and JSON body of the answer. */
async function receive(header: (name: string) => string | undefined, body: Buffer): Promise<Answer> {
  const signature = header('signature');
  const eventId = header('x-event-id');
  const timestamp = header('x-event-timestamp');
  if (
    signature === undefined ||
    eventId === undefined ||
    timestamp === undefined ||
    header('x-signature-algorithm') !== 'EdDSA' ||
    // The protocol's ±300 s, written out as a market without the kit would (no kit code in the
    // baseline); bench/test/baseline-window.test.ts ties it to core's DEFAULT_TOLERANCE_SECONDS.
    Math.abs(Date.parse(timestamp) - Date.now()) > 300_000
  ) {
    return [401, '{"code":"signature_invalid"}'];
  }
  const digest = createHash('sha256').update(body).digest('base64url');
  const message = Buffer.from(`POST\n${signedUrl}\n${eventId}\n${timestamp}\n${digest}`);
  if (!(await crypto.subtle.verify('Ed25519', key, Buffer.from(signature, 'base64url'), message))) {
    return [401, '{"code":"signature_invalid"}'];
  }
  const event = JSON.parse(body.toString('utf8')) as {
    type: string;
    order_id: string;
    order_status: OrderStatus;
  };
  const fresh = await record(eventId, event.type, event.order_id, event.order_status);
  return [200, fresh ? '{"received":true}' : '{"received":true,"duplicate":true}'];
}

await serveForParent(await listenHandWritten(framework, WEBHOOK_PATH, receive));

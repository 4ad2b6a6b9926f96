/**
 * The minimal hand-written order-creation endpoint the kit is measured against: node:http, `pg`,
 * a bearer check, the body validated once (the kit's wire schema plus the same arithmetic rule the
 * market endpoint applies: one currency, lines summing to a non-zero total), one call to
 * the same sandbox service with a cached access token, one INSERT. No fingerprint, no replay
 * lookup, no history row: the floor, not a design to copy.
 *
 * The service call goes through fetch, as a hand-written endpoint usually does; with `http` (the
 * `baseline-http` candidate) through `node:http` with a kept-alive agent, as the kit's service
 * client does on Node: the floor for the kit's own work, the transport aside. By default on bare
 * node:http; behind Express, Koa or Hono (`baseline-express`, …: the same endpoint as that
 * framework's own route, with the `http` transport) it is the floor of a market on that framework,
 * which the kit's adapter is compared with too, as in webhook-pg.
 *
 *   baseline-orders.ts <databaseUrl> <schema> <serviceUrl> [fetch|http] [node|express|koa|hono]
 */
import { Agent, request } from 'node:http';
import type { OrderCreateRequest } from '@bnpl-kit/core';
import { orderCreateRequestCodec, parseWire } from '@bnpl-kit/core/wire';
import pg from 'pg';
import { serveForParent } from './child.js';
import { countRoundTrips } from './count-round-trips.js';
import { type Answer, type BaselineFramework, listenHandWritten } from './hand-written-route.js';

const [databaseUrl, schema, serviceUrl, transport = 'fetch', framework = 'node'] = process.argv.slice(2) as [
  string,
  string,
  string,
  ('fetch' | 'http')?,
  BaselineFramework?,
];
const ORDERS_PATH = '/v1/orders';
countRoundTrips(pg);
const pool = new pg.Pool({ connectionString: databaseUrl, max: 10, options: `-c search_path=${schema}` });

const tokenResponse = await fetch(`${serviceUrl}/v1/token`, {
  method: 'POST',
  headers: { 'X-API-KEY': 'sk_bench_key', accept: 'application/json' },
});
const token = ((await tokenResponse.json()) as { data: { access_token: string } }).data.access_token;

const agent = new Agent({ keepAlive: true });

/** One POST to the service through the transport the command line chose. */
async function post(
  url: string,
  init: { headers: Record<string, string>; body: string },
): Promise<{ ok: boolean; text: string }> {
  if (transport === 'fetch') {
    const answer = await fetch(url, { method: 'POST', ...init });
    return { ok: answer.ok, text: await answer.text() };
  }
  return new Promise((resolve, reject) => {
    const headers = { ...init.headers, 'content-length': String(Buffer.byteLength(init.body)) };
    const req = request(url, { method: 'POST', headers, agent }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => {
        const status = res.statusCode ?? 0;
        resolve({ ok: status >= 200 && status < 300, text: Buffer.concat(chunks).toString('utf8') });
      });
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(init.body);
  });
}

/** The market endpoint's arithmetic rule (WIRE §1), by hand. */
function sumsUp(order: OrderCreateRequest): boolean {
  const { currency, value } = order.totalAmount;
  let sum = 0n;
  for (const line of order.orderLines) {
    if (line.subtotal.currency !== currency || line.unitPrice.currency !== currency) return false;
    sum += BigInt(line.subtotal.value);
  }
  return sum !== 0n && sum === BigInt(value);
}

/** The endpoint, whatever serves it (hand-written-route.ts). */
async function create(header: (name: string) => string | undefined, bytes: Buffer): Promise<Answer> {
  if (header('authorization') !== 'Bearer bench-market-token') return [401, '{}'];
  let order: OrderCreateRequest;
  try {
    order = parseWire(orderCreateRequestCodec.schema, JSON.parse(bytes.toString('utf8')));
  } catch {
    return [400, '{"code":"validation_failed"}'];
  }
  if (!sumsUp(order)) return [400, '{"code":"validation_failed"}'];
  const answer = await post(`${serviceUrl}/v1/integration/bnpl-consumers/orders`, {
    headers: {
      authorization: `Bearer ${token}`,
      'content-type': 'application/json',
      accept: 'application/json',
      'idempotency-key': `create-order:${order.referenceId}`,
    },
    body: JSON.stringify(orderCreateRequestCodec.encode(order)),
  });
  if (!answer.ok) return [502, '{"code":"service_error"}'];
  const created = (JSON.parse(answer.text) as { data: { id: string; order_status: string } }).data;
  await pool.query(
    `INSERT INTO bnpl_orders (id, reference_id, total_value, currency, order_lines, status, request_fingerprint)
     VALUES ($1, $2, $3::numeric, $4, $5::jsonb, $6, '')`,
    [
      created.id,
      order.referenceId,
      order.totalAmount.value,
      order.totalAmount.currency,
      JSON.stringify(order.orderLines),
      created.order_status,
    ],
  );
  return [
    201,
    JSON.stringify({
      id: created.id,
      reference_id: order.referenceId,
      total_amount: order.totalAmount,
      status: created.order_status,
    }),
  ];
}

await serveForParent(await listenHandWritten(framework, ORDERS_PATH, create));

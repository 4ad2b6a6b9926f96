/**
 * Order helpers: a valid create request per WIRE §1, creating an order through the market, reading
 * its status through the market, and the state probes (cancel, disburse) that show the market's own
 * view of an order over HTTP. Orders the provider approved are in approvals.ts.
 */
import { wireOrder } from '@bnpl-kit/core/testing';
import { ensure, expectJsonObject, expectStatus, type JsonObject } from '../expect.js';
import type { HttpExchange } from '../http.js';
import type { CheckContext } from '../types.js';
import { ContractViolation, PrerequisiteFailed } from '../violation.js';
import { routeUrl } from './routes.js';

interface WireAmount {
  value: string;
  currency: string;
}

/** An order line as sent; checks break single fields of it. */
export interface OrderLineRequest extends Record<string, unknown> {
  quantity: number;
  unit_price: WireAmount;
  subtotal: WireAmount;
}

export interface OrderRequest extends Record<string, unknown> {
  reference_id: string;
  total_amount: WireAmount;
  order_lines: OrderLineRequest[];
}

/**
 * The project's one order fixture (`@bnpl-kit/core/testing`, in the wire form a request carries),
 * valid under every rule of WIRE §1, under `referenceId`. A fresh copy each call: checks break it.
 */
export function sampleOrder(referenceId: string): OrderRequest {
  return wireOrder({ reference_id: referenceId }) as OrderRequest;
}

/** The fixture with its first line's quantity changed and the amounts following: other content, still valid. */
export function sampleOrderOfQuantity(referenceId: string, quantity: number): OrderRequest {
  const order = sampleOrder(referenceId);
  const line = order.order_lines[0]!;
  line.quantity = quantity;
  line.subtotal = { ...line.unit_price, value: String(BigInt(line.unit_price.value) * BigInt(quantity)) };
  const total = order.order_lines.reduce((sum, l) => sum + BigInt(l.subtotal.value), 0n);
  order.total_amount = { ...order.total_amount, value: String(total) };
  return order;
}

/** Posts `body` as JSON, or `text` as it is (a serialisation of certify's choosing) when given. */
export function postOrder(
  ctx: CheckContext,
  body: unknown,
  headers: Record<string, string> = {},
  text?: string,
): Promise<HttpExchange> {
  const all = { ...ctx.systemAuth, ...headers };
  return ctx.http.send(
    routeUrl(ctx, 'createOrder'),
    text === undefined
      ? { method: 'POST', json: body, headers: all }
      : { method: 'POST', body: text, headers: { 'content-type': 'application/json', ...all } },
  );
}

/** The check that certifies order creation; every check that creates an order needs it. */
export const CREATE_CHECK_ID = 'orders.create.valid';

export interface CreatedOrder {
  id: string;
  referenceId: string;
  /** What was sent to create it. */
  request: OrderRequest;
  record: JsonObject;
  exchange: HttpExchange;
}

/** Creates a fresh order through the market; a market that cannot is a violation of WIRE §5. */
export async function createOrder(
  ctx: CheckContext,
  request = sampleOrder(ctx.unique('ref')),
): Promise<CreatedOrder> {
  const exchange = await postOrder(ctx, request);
  try {
    expectStatus(exchange, 201, 'with the order record for a valid order create request', 'WIRE §5');
    const record = expectJsonObject(exchange, 'for a created order');
    ensure(typeof record.id === 'string' && record.id !== '', {
      expected: 'the order record to carry the order "id" (a non-empty string)',
      exchange,
      spec: 'spec: Order record',
    });
    return { id: record.id, referenceId: request.reference_id, request, record, exchange };
  } catch (error) {
    // Order creation is certified by its own check; here it is only a step.
    if (error instanceof ContractViolation) throw new PrerequisiteFailed(CREATE_CHECK_ID, error);
    throw error;
  }
}

export function orderPath(ctx: CheckContext, id: string, action: 'cancel' | 'disburse'): string {
  return routeUrl(ctx, action === 'cancel' ? 'cancelOrder' : 'disburseOrder', { id });
}

export function statusPath(ctx: CheckContext, id: string): string {
  return routeUrl(ctx, 'getOrderStatus', { id });
}

/** `GET /v1/orders/service/:id` → the status the market reports (its local record reconciled). */
export async function marketStatus(
  ctx: CheckContext,
  id: string,
): Promise<{ status: string; exchange: HttpExchange }> {
  const exchange = await ctx.http.send(statusPath(ctx, id), { headers: { ...ctx.systemAuth } });
  expectStatus(exchange, 200, 'with the order status information', 'WIRE §5');
  const body = expectJsonObject(exchange, 'for the order status');
  ensure(typeof body.status === 'string', {
    expected: 'a "status" string in the order status answer',
    exchange,
  });
  return { status: body.status, exchange };
}

/** Asserts the status the market reports, explaining which webhooks should have led there. */
export async function expectMarketStatus(
  ctx: CheckContext,
  id: string,
  expected: string,
  because: string,
): Promise<void> {
  const { status, exchange } = await marketStatus(ctx, id);
  ensure(status === expected, {
    expected: `the market to report status ${expected} for order ${id} (${because})`,
    actual: `status ${status}`,
    exchange,
    spec: 'WIRE §3',
  });
}

export function postAction(
  ctx: CheckContext,
  id: string,
  action: 'cancel' | 'disburse',
): Promise<HttpExchange> {
  return ctx.http.send(orderPath(ctx, id, action), { method: 'POST', headers: { ...ctx.systemAuth } });
}

/**
 * The status the market holds in its own record, not reconciled with the service: read while the
 * service fails every status call (a market may answer from its record then). Undefined when the
 * market answers the status endpoint with an error instead; data-sharing markets are then probed
 * with cancel, which WIRE §5 decides on the stored status (202 only when APPROVED).
 */
export async function ownRecordIsApproved(ctx: CheckContext, id: string): Promise<boolean | undefined> {
  await ctx.sandbox.injectFault({
    operation: 'getOrder',
    action: 'error',
    status: 500,
    times: 5,
    order_id: id,
  });
  let exchange: HttpExchange;
  try {
    exchange = await ctx.http.send(statusPath(ctx, id), { headers: { ...ctx.systemAuth } });
  } finally {
    await ctx.sandbox.clearFaults();
  }
  if (exchange.status === 200)
    return expectJsonObject(exchange, 'for the order status').status === 'APPROVED';
  if (ctx.mode !== 'data-sharing') return undefined;
  return (await postAction(ctx, id, 'cancel')).status === 202;
}

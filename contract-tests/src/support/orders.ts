/**
 * Order helpers: a valid create request per WIRE §1, creating an order through the market, reading
 * its status through the market, and the state probes (cancel, disburse) that show the market's own
 * view of an order over HTTP.
 */
import { ensure, expectJsonObject, expectStatus, type JsonObject } from '../expect.js';
import type { HttpExchange } from '../http.js';
import type { CheckContext } from '../types.js';
import { ContractViolation, PrerequisiteFailed } from '../violation.js';

export interface OrderRequest {
  reference_id: string;
  total_amount: { value: string; currency: string };
  order_lines: Record<string, unknown>[];
}

/** Two lines, 2 × 150 000 + 1 × 49 000 = 349 000 VND. */
export function sampleOrder(referenceId: string): OrderRequest {
  return {
    reference_id: referenceId,
    total_amount: { value: '349000', currency: 'VND' },
    order_lines: [
      {
        name: 'Áo thun cotton',
        reference_id: 'sku-tee-01',
        image_url: 'https://shop.example.com/images/tee.jpg',
        product_url: 'https://shop.example.com/products/tee',
        quantity: 2,
        measment_unit: 'EACH',
        unit_price: { value: '150000', currency: 'VND' },
        subtotal: { value: '300000', currency: 'VND' },
      },
      {
        name: 'Tất len',
        reference_id: 'sku-socks-02',
        image_url: 'https://shop.example.com/images/socks.jpg',
        product_url: 'https://shop.example.com/products/socks',
        quantity: 1,
        measment_unit: 'EACH',
        unit_price: { value: '49000', currency: 'VND' },
        subtotal: { value: '49000', currency: 'VND' },
      },
    ],
  };
}

export function postOrder(
  ctx: CheckContext,
  body: unknown,
  headers: Record<string, string> = {},
): Promise<HttpExchange> {
  return ctx.http.send(ctx.url('/orders'), {
    method: 'POST',
    json: body,
    headers: { ...ctx.systemAuth, ...headers },
  });
}

/** The check that certifies order creation; every check that creates an order needs it. */
export const CREATE_CHECK_ID = 'orders.create.valid';

export interface CreatedOrder {
  id: string;
  referenceId: string;
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
    return { id: record.id, referenceId: request.reference_id, record, exchange };
  } catch (error) {
    // Order creation is certified by its own check; here it is only a step.
    if (error instanceof ContractViolation) throw new PrerequisiteFailed(CREATE_CHECK_ID, error);
    throw error;
  }
}

export function orderPath(ctx: CheckContext, id: string, action: 'cancel' | 'disburse'): string {
  return ctx.url(`/orders/${encodeURIComponent(id)}/${action}`);
}

export function statusPath(ctx: CheckContext, id: string): string {
  return ctx.url(`/orders/service/${encodeURIComponent(id)}`);
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
 * The provider approves `id` at the service, but the service's own APPROVED webhook is dropped, so
 * a check can deliver that status itself (as a vector, pretty-printed, through a proxy) while the
 * service and the webhooks still agree (certify never delivers a status the service does not have).
 */
export async function approveUnannounced(ctx: CheckContext, id: string): Promise<void> {
  await ctx.sandbox.injectFault({ action: 'drop', times: 1, event_type: 'BNPL_ORDER_STATUS_UPDATED' });
  try {
    await ctx.sandbox.approve(id);
  } finally {
    await ctx.sandbox.clearFaults();
  }
}

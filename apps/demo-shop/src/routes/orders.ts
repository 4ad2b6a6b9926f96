/** Checkout through the market (server-side, with the market API token) and the user's orders. */
import { KitError } from '@bnpl-kit/core';
import { CartError, orderFromCart } from '../catalogue.js';
import { jsonResponse, readJson } from '../http.js';
import { orderView } from '../shop-orders.js';
import type { ShopRouteHandler } from './route.js';

function cartOf(body: Record<string, unknown>): { productId: string; quantity: number }[] {
  const items = Array.isArray(body.items) ? body.items : [];
  return items.map((item: { product_id?: unknown; quantity?: unknown }) => ({
    productId: String(item?.product_id ?? ''),
    quantity: Number(item?.quantity),
  }));
}

export const checkout: ShopRouteHandler = async ({ options, market, orders, signedIn }, request) => {
  const user = await signedIn(request);
  const cart = cartOf(await readJson(request));
  const baseUrl = (options.publicBaseUrl ?? new URL(request.url).origin).replace(/\/+$/, '');
  const referenceId = `shop-${Date.now().toString(36)}-${crypto.randomUUID().slice(0, 8)}`;
  let order: ReturnType<typeof orderFromCart>;
  try {
    order = orderFromCart(cart, referenceId, baseUrl);
  } catch (error) {
    if (error instanceof CartError) throw new KitError('validation_failed', error.message);
    throw error;
  }
  const record = await market.createOrder(order);
  orders.add({
    id: record.id,
    userId: user.id,
    reference_id: record.reference_id,
    total_amount: record.totalAmount,
    lines: order.orderLines.map((l) => ({ product_id: l.referenceId, name: l.name, quantity: l.quantity })),
    created_at: new Date().toISOString(),
    status: record.status,
  });
  // The market's order record, as the SDK wants it: `id` and `totalAmount`.
  return jsonResponse({ order: record }, 201);
};

export const listOrders: ShopRouteHandler = async ({ orders, signedIn, refreshed }, request) => {
  const user = await signedIn(request);
  const mine = await Promise.all(orders.ofUser(user.id).map(refreshed));
  return jsonResponse({ orders: mine.map(orderView) });
};

export const getOrder: ShopRouteHandler = async ({ orders, signedIn, refreshed }, request, params) => {
  const user = await signedIn(request);
  const order = orders.get(params.id ?? '', user.id);
  if (!order) throw new KitError('order_not_found', 'No such order of yours');
  return jsonResponse({ order: orderView(await refreshed(order)) });
};

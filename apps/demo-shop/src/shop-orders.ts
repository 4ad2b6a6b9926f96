/** The shop's own memory of who bought what (the market's store keeps the BNPL side of each order). */

export interface ShopOrder {
  id: string;
  userId: string;
  referenceId: string;
  totalAmount: { value: string; currency: string };
  lines: { productId: string; name: string; quantity: number }[];
  createdAt: string;
  /** The last status seen; refreshed from the market on every read. */
  status: string;
}

const MAX_ORDERS = 10_000;

export class ShopOrders {
  readonly #orders = new Map<string, ShopOrder>();

  add(order: ShopOrder): void {
    // A demo left running for weeks forgets its oldest orders rather than growing without bound.
    if (this.#orders.size >= MAX_ORDERS) {
      const oldest = this.#orders.keys().next();
      if (!oldest.done) this.#orders.delete(oldest.value);
    }
    this.#orders.set(order.id, order);
  }

  /** The user's order, or undefined (another user's order is as unknown as a missing one). */
  get(id: string, userId: string): ShopOrder | undefined {
    const order = this.#orders.get(id);
    return order?.userId === userId ? order : undefined;
  }

  ofUser(userId: string): ShopOrder[] {
    return [...this.#orders.values()].filter((o) => o.userId === userId).reverse();
  }
}

export function orderView(order: ShopOrder): Record<string, unknown> {
  return {
    id: order.id,
    reference_id: order.referenceId,
    total_amount: order.totalAmount,
    lines: order.lines.map((l) => ({ product_id: l.productId, name: l.name, quantity: l.quantity })),
    created_at: order.createdAt,
    status: order.status,
  };
}

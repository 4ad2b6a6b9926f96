/** The shop's own memory of who bought what (the market's store keeps the BNPL side of each order). */

/** An order as the storefront shows it: the `/shop/orders` answers, in wire form. */
export interface ShopOrderView {
  id: string;
  reference_id: string;
  total_amount: { value: string; currency: string };
  lines: { product_id: string; name: string; quantity: number }[];
  created_at: string;
  /** The last status seen; refreshed from the market on every read. */
  status: string;
}

/** The shop's record of an order: what it shows, and whose it is. */
export interface ShopOrder extends ShopOrderView {
  userId: string;
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

export function orderView({ userId: _, ...view }: ShopOrder): ShopOrderView {
  return view;
}

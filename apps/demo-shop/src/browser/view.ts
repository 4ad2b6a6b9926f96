/** DOM rendering of the cart, the orders and messages: text only (textContent), never markup. */
import type { ShopOrderView } from './api.js';

export const $ = <T extends HTMLElement = HTMLElement>(id: string) => document.getElementById(id) as T;

export const formatVnd = (value: string) => `${value.replace(/\B(?=(\d{3})+(?!\d))/g, ',')} VND`;

function el<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  props: Partial<HTMLElementTagNameMap[K]> = {},
  ...children: (Node | string)[]
): HTMLElementTagNameMap[K] {
  const node = Object.assign(document.createElement(tag), props);
  node.append(...children);
  return node;
}

export function showMessage(text: string, tone: 'info' | 'good' | 'bad' = 'info'): void {
  const box = $('message');
  box.textContent = text;
  box.dataset.tone = tone;
}

export interface CartLineView {
  productId: string;
  name: string;
  price: string;
  quantity: number;
}

export function renderCart(
  lines: CartLineView[],
  onQuantity: (productId: string, delta: number) => void,
): void {
  const list = $('cart-lines');
  list.replaceChildren(
    ...lines.map((line) => {
      const minus = el('button', { type: 'button', textContent: '−', ariaLabel: `One ${line.name} less` });
      const plus = el('button', { type: 'button', textContent: '+', ariaLabel: `One ${line.name} more` });
      minus.addEventListener('click', () => onQuantity(line.productId, -1));
      plus.addEventListener('click', () => onQuantity(line.productId, 1));
      const subtotal = String(BigInt(line.price) * BigInt(line.quantity));
      return el(
        'li',
        { className: 'cart-line' },
        el('span', { className: 'name', textContent: line.name }),
        el('span', { className: 'qty' }, minus, el('span', { textContent: String(line.quantity) }), plus),
        el('span', { textContent: formatVnd(subtotal) }),
      );
    }),
  );
  const total = lines.reduce((sum, l) => sum + BigInt(l.price) * BigInt(l.quantity), 0n);
  $('cart-total').textContent = formatVnd(String(total));
  $('cart-empty').hidden = lines.length > 0;
}

export function renderOrders(orders: ShopOrderView[]): void {
  $('orders').replaceChildren(
    ...orders.map((order) => {
      const what = order.lines.map((l) => (l.quantity > 1 ? `${l.name} × ${l.quantity}` : l.name)).join(', ');
      const status = el('span', { className: 'status', textContent: order.status });
      status.dataset.status = order.status;
      const item = el(
        'li',
        { className: 'order', id: `order-${order.id}` },
        el(
          'div',
          { className: 'what' },
          el('strong', { textContent: what }),
          el('span', { textContent: `${order.reference_id} · ${formatVnd(order.total_amount.value)}` }),
        ),
        status,
      );
      item.dataset.orderId = order.id;
      return item;
    }),
  );
  $('orders-empty').hidden = orders.length > 0;
}

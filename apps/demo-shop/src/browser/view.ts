/** DOM rendering of the cart, the orders and messages: text only (textContent), never markup. */
import type { ShopOrderView } from '../shop-orders.js';

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

/** The provider's next move for an order in this status, when the shop shows it (sandbox only). */
export type ProviderMove = 'ready' | 'paid';

export interface NextSteps {
  /** The sandbox's provider buttons are reachable from this page (its admin API is same-origin). */
  providerButtons: boolean;
  /** Data-sharing: after readiness the market itself asks for the disbursement (no Paid button). */
  marketDisburses: boolean;
  onMove(orderId: string, move: ProviderMove): void;
}

/** What happens next for an order, in words, and the provider's button for it. */
function nextStep(status: string, steps: NextSteps): { text: string; move?: ProviderMove } | undefined {
  if (status === 'PENDING') return { text: 'Waiting for the pay-later decision.' };
  if (status === 'APPROVED') {
    return { text: 'Approved. Next: the provider confirms the order is ready to pay out.', move: 'ready' };
  }
  if (status === 'DISBURSING') {
    return steps.marketDisburses
      ? { text: 'Ready: the shop is asking the provider for the payout.' }
      : { text: 'Ready. Next: the provider pays the shop.', move: 'paid' };
  }
  if (status === 'CANCELING') return { text: 'Being canceled.' };
  return undefined;
}

const MOVE_LABELS: Record<ProviderMove, string> = {
  ready: 'Provider: confirm ready',
  paid: 'Provider: pay the shop',
};

export function renderOrders(orders: ShopOrderView[], steps: NextSteps): void {
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
          ...nextStepNodes(order, steps),
        ),
        status,
      );
      item.dataset.orderId = order.id;
      return item;
    }),
  );
  $('orders-empty').hidden = orders.length > 0;
}

function nextStepNodes(order: ShopOrderView, steps: NextSteps): HTMLElement[] {
  const next = nextStep(order.status, steps);
  if (!next) return [];
  const nodes: HTMLElement[] = [el('span', { className: 'next', textContent: next.text })];
  if (next.move && steps.providerButtons) {
    const move = next.move;
    const button = el('button', { type: 'button', className: 'provider', textContent: MOVE_LABELS[move] });
    button.dataset.move = move;
    button.addEventListener('click', () => {
      button.disabled = true;
      steps.onMove(order.id, move);
    });
    nodes.push(button);
  }
  return nodes;
}

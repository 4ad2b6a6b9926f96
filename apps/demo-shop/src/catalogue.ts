/**
 * The shop's products. Prices live on the server only: the browser sends product IDs and quantities,
 * and the order (unit prices, subtotals, total) is computed here with BigInt (WIRE §1).
 */
import type { OrderCreateRequest } from '@bnpl-kit/core';

export interface Product {
  id: string;
  name: string;
  description: string;
  /** VND, whole units, as a digit string. */
  price: string;
  /** Colours of its picture. */
  colors: [string, string];
  /** The picture: fixed SVG shapes on a 120×120 canvas, drawn in the dark colour. */
  glyph: string;
}

export const PRODUCTS: readonly Product[] = [
  {
    id: 'rice-cooker',
    name: 'Rice cooker',
    description: '1.8 L, keeps rice warm for 12 hours.',
    price: '890000',
    colors: ['#fde68a', '#b45309'],
    glyph: '<path d="M30 52h60v34a10 10 0 0 1-10 10H40a10 10 0 0 1-10-10z M26 46h68v8H26z M52 36h16v8H52z"/>',
  },
  {
    id: 'tea-set',
    name: 'Ceramic tea set',
    description: 'Bát Tràng teapot with four cups.',
    price: '450000',
    colors: ['#bfdbfe', '#1d4ed8'],
    glyph:
      '<path d="M28 56h52v18a20 20 0 0 1-20 20h-12a20 20 0 0 1-20-20z M80 62h6a9 9 0 0 1 0 18h-8v-7h8a2 2 0 0 0 0-4h-6z M46 44h16v8H46z"/><path d="M20 100h68" stroke-width="6" stroke-linecap="round"/>',
  },
  {
    id: 'headphones',
    name: 'Wireless headphones',
    description: 'Noise cancelling, 24 h with the case.',
    price: '1290000',
    colors: ['#ddd6fe', '#6d28d9'],
    glyph:
      '<path d="M32 76V62a28 28 0 0 1 56 0v14" fill="none" stroke-width="8"/><rect x="24" y="66" width="20" height="30" rx="7"/><rect x="76" y="66" width="20" height="30" rx="7"/>',
  },
  {
    id: 'silk-scarf',
    name: 'Silk scarf',
    description: 'Hand-dyed Vạn Phúc silk.',
    price: '320000',
    colors: ['#fecdd3', '#be123c'],
    glyph: '<path d="M28 36h64l-10 20 10 20-10 20H28l10-20-10-20z"/>',
  },
];

export const productById = (id: string) => PRODUCTS.find((p) => p.id === id);

export interface CartItem {
  productId: string;
  quantity: number;
}

/** The order create request of WIRE §1 for a cart; throws on an unknown product or bad quantity. */
export function orderFromCart(items: CartItem[], referenceId: string, baseUrl: string): OrderCreateRequest {
  if (items.length === 0 || items.length > 20) throw new CartError('The cart must hold 1 to 20 lines');
  const orderLines = items.map((item) => {
    const product = productById(item.productId);
    if (!product) throw new CartError(`Unknown product ${JSON.stringify(item.productId)}`);
    if (!Number.isInteger(item.quantity) || item.quantity < 1 || item.quantity > 99) {
      throw new CartError('Quantities are whole numbers from 1 to 99');
    }
    const unitPrice = { value: product.price, currency: 'VND' as const };
    return {
      name: product.name,
      referenceId: product.id,
      imageUrl: `${baseUrl}/assets/products/${product.id}.svg`,
      productUrl: `${baseUrl}/#product-${product.id}`,
      quantity: item.quantity,
      measurementUnit: 'EACH' as const,
      unitPrice,
      subtotal: { value: String(BigInt(product.price) * BigInt(item.quantity)), currency: 'VND' as const },
    };
  });
  const total = orderLines.reduce((sum, line) => sum + BigInt(line.subtotal.value), 0n);
  return { referenceId, totalAmount: { value: String(total), currency: 'VND' }, orderLines };
}

export class CartError extends Error {}

/** The product picture as SVG: the glyph on a soft background, no external assets. */
export function productSvg(product: Product): string {
  const [light, dark] = product.colors;
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 120 120" width="240" height="240"><rect width="120" height="120" rx="16" fill="${light}"/><g fill="${dark}" stroke="${dark}" stroke-width="0">${product.glyph}</g></svg>`;
}

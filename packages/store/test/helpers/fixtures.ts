import type { NewStoredOrder, OrderLine } from '@bnpl-kit/core';
import { unique } from './backends.js';

export function orderLine(overrides: Partial<OrderLine> = {}): OrderLine {
  return {
    name: 'Bánh mì',
    referenceId: 'sku-1',
    imageUrl: 'https://example.com/img.png',
    productUrl: 'https://example.com/p/1',
    quantity: 3,
    measurementUnit: 'EACH',
    unitPrice: { value: '50000', currency: 'VND' },
    subtotal: { value: '150000', currency: 'VND' },
    ...overrides,
  };
}

export function newOrder(overrides: Partial<NewStoredOrder> = {}): NewStoredOrder {
  return {
    id: unique('svc-order'),
    referenceId: unique('ref'),
    totalAmount: { value: '150000', currency: 'VND' },
    orderLines: [orderLine()],
    status: 'PENDING',
    requestFingerprint: 'fp-1',
    ...overrides,
  };
}

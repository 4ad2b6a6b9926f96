/**
 * The one order fixture: one line (2 × 150 000 VND rice cookers), valid under every rule of WIRE §1.
 * In wire form for request bodies, and as models for code that takes the decoded order; each test
 * changes one thing through `overrides`.
 */
import type { OrderCreateRequest } from '../models/order.js';
import type { OrderLine } from '../models/order-line.js';

export function wireOrderLine(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    name: 'Rice cooker',
    reference_id: 'sku-1',
    image_url: 'https://shop.example.com/img/1.png',
    product_url: 'https://shop.example.com/p/1',
    quantity: 2,
    measment_unit: 'EACH',
    unit_price: { value: '150000', currency: 'VND' },
    subtotal: { value: '300000', currency: 'VND' },
    ...overrides,
  };
}

export function wireOrder(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    reference_id: 'order-1',
    total_amount: { value: '300000', currency: 'VND' },
    order_lines: [wireOrderLine()],
    ...overrides,
  };
}

/** `wireOrderLine()` as the model. */
export function orderLineFixture(overrides: Partial<OrderLine> = {}): OrderLine {
  return {
    name: 'Rice cooker',
    referenceId: 'sku-1',
    imageUrl: 'https://shop.example.com/img/1.png',
    productUrl: 'https://shop.example.com/p/1',
    quantity: 2,
    measurementUnit: 'EACH',
    unitPrice: { value: '150000', currency: 'VND' },
    subtotal: { value: '300000', currency: 'VND' },
    ...overrides,
  };
}

/** `wireOrder()` as the model. */
export function orderFixture(overrides: Partial<OrderCreateRequest> = {}): OrderCreateRequest {
  return {
    referenceId: 'order-1',
    totalAmount: { value: '300000', currency: 'VND' },
    orderLines: [orderLineFixture()],
    ...overrides,
  };
}

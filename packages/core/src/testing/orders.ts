/**
 * The one order fixture: one line (2 × 150 000 VND rice cookers), valid under every rule of WIRE §1.
 * As models for code that takes the decoded order, and in wire form (the same order through the
 * wire codecs) for request bodies; each test changes one thing through `overrides`.
 */
import { type OrderCreateRequest, orderCreateRequestCodec } from '../models/order.js';
import { type OrderLine, orderLineCodec } from '../models/order-line.js';

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

export function orderFixture(overrides: Partial<OrderCreateRequest> = {}): OrderCreateRequest {
  return {
    referenceId: 'order-1',
    totalAmount: { value: '300000', currency: 'VND' },
    orderLines: [orderLineFixture()],
    ...overrides,
  };
}

/** `orderLineFixture()` on the wire; overrides use wire keys (`unit_price`, `measment_unit`). */
export function wireOrderLine(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return { ...orderLineCodec.encode(orderLineFixture()), ...overrides };
}

/** `orderFixture()` on the wire; overrides use wire keys (`reference_id`, `order_lines`). */
export function wireOrder(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return { ...orderCreateRequestCodec.encode(orderFixture()), ...overrides };
}

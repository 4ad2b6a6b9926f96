/** Builders for valid wire-format orders; each test changes one thing. */
export function wireLine(overrides: Record<string, unknown> = {}): Record<string, unknown> {
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
    order_lines: [wireLine()],
    ...overrides,
  };
}

import { describe, expect, it } from 'vitest';
import { KitError } from '../src/errors.js';
import { addAmounts, amount, amountSchema, multiplyAmount } from '../src/models/money.js';
import { orderCreateRequestCodec, orderCreateRequestSchema, orderRecordCodec } from '../src/models/order.js';
import { orderLineSchema } from '../src/models/order-line.js';
import { parseWire } from '../src/models/wire.js';
import { wireOrderLine as wireLine, wireOrder } from '../src/testing.js';

function issues(schema: Parameters<typeof parseWire>[0], input: unknown) {
  try {
    parseWire(schema, input);
  } catch (error) {
    expect(error).toBeInstanceOf(KitError);
    return (error as KitError).errors ?? [];
  }
  throw new Error('expected validation to fail');
}

describe('Amount', () => {
  it.each(['0', '1', '150000', '999999999999999'])('accepts %s', (value) => {
    expect(amountSchema.parse({ value, currency: 'VND' })).toEqual({ value, currency: 'VND' });
  });

  it.each([
    ['leading zero', '0150'],
    ['negative', '-1'],
    ['decimal point', '1.5'],
    ['spaces', ' 15'],
    ['16 digits', '1000000000000000'],
    ['empty', ''],
    ['exponent', '1e5'],
  ])('refuses %s', (_label, value) => {
    expect(amountSchema.safeParse({ value, currency: 'VND' }).success).toBe(false);
  });

  it('refuses numbers and other currencies', () => {
    expect(amountSchema.safeParse({ value: 150000, currency: 'VND' }).success).toBe(false);
    expect(amountSchema.safeParse({ value: '1', currency: 'USD' }).success).toBe(false);
  });

  it('adds and multiplies with BigInt, exact beyond 2^53', () => {
    const big = amount('900719925474099'); // 15 digits
    expect(addAmounts(big, amount('1')).value).toBe('900719925474100');
    expect(multiplyAmount(amount('99999999999'), 9999).value).toBe('999899999990001');
    expect(() => multiplyAmount(amount('999999999999999'), 10)).toThrow(/15 digits/);
  });
});

describe('OrderLine', () => {
  it('decodes to the camelCase model', () => {
    const line = orderLineSchema.parse(wireLine());
    expect(line).toMatchObject({
      referenceId: 'sku-1',
      measurementUnit: 'EACH',
      unitPrice: { value: '150000' },
    });
  });

  it('names the expected spelling when measurement_unit is used', () => {
    const { measment_unit: _, ...rest } = wireLine();
    const found = issues(orderLineSchema, { ...rest, measurement_unit: 'EACH' });
    expect(found[0]).toEqual({
      path: 'measment_unit',
      message: expect.stringContaining('"measment_unit"'),
    });
  });

  it('checks subtotal = quantity × unit_price', () => {
    const found = issues(orderLineSchema, wireLine({ subtotal: { value: '300001', currency: 'VND' } }));
    expect(found).toEqual([{ path: 'subtotal.value', message: expect.stringContaining('300000') }]);
  });

  it.each([
    ['quantity 0', { quantity: 0 }, 'quantity'],
    ['quantity 10001', { quantity: 10001 }, 'quantity'],
    ['fractional quantity', { quantity: 1.5 }, 'quantity'],
    ['relative image_url', { image_url: '/img.png' }, 'image_url'],
    ['ftp product_url', { product_url: 'ftp://x/y' }, 'product_url'],
    ['empty name', { name: '' }, 'name'],
    ['long reference_id', { reference_id: 'x'.repeat(256) }, 'reference_id'],
    ['other unit', { measment_unit: 'KG' }, 'measment_unit'],
  ])('refuses %s', (_label, overrides, path) => {
    expect(issues(orderLineSchema, wireLine(overrides)).map((i) => i.path)).toContain(path);
  });
});

describe('Order create request', () => {
  it('accepts a valid order and round-trips through the codec', () => {
    const order = orderCreateRequestSchema.parse(wireOrder());
    expect(order.orderLines[0]?.measurementUnit).toBe('EACH');
    expect(orderCreateRequestCodec.encode(order)).toEqual(wireOrder());
  });

  it('requires total_amount = sum of subtotals, reporting the expected sum', () => {
    const body = wireOrder({
      order_lines: [
        wireLine(),
        wireLine({ reference_id: 'sku-2', quantity: 1, subtotal: { value: '150000', currency: 'VND' } }),
      ],
    });
    const found = issues(orderCreateRequestSchema, body);
    expect(found).toEqual([{ path: 'total_amount.value', message: expect.stringContaining('450000') }]);
  });

  it('reports nested paths in wire format', () => {
    const body = wireOrder({
      order_lines: [wireLine(), wireLine({ subtotal: { value: 'abc', currency: 'VND' } })],
    });
    expect(issues(orderCreateRequestSchema, body).map((i) => i.path)).toContain(
      'order_lines[1].subtotal.value',
    );
  });

  it('reports every problem at once', () => {
    const found = issues(orderCreateRequestSchema, {
      reference_id: '',
      total_amount: { value: '1' },
      order_lines: [],
    });
    expect(found.map((i) => i.path).sort()).toEqual(
      ['order_lines', 'reference_id', 'total_amount.currency'].sort(),
    );
  });

  it('refuses an empty order', () => {
    expect(issues(orderCreateRequestSchema, wireOrder({ order_lines: [] }))[0]?.path).toBe('order_lines');
  });
});

describe('Order record', () => {
  it('uses camelCase totalAmount on the wire', () => {
    const wire = orderRecordCodec.encode({
      id: 'ord_1',
      referenceId: 'order-1',
      totalAmount: { value: '1', currency: 'VND' },
      status: 'PENDING',
    });
    expect(wire).toEqual({
      id: 'ord_1',
      reference_id: 'order-1',
      totalAmount: { value: '1', currency: 'VND' },
      status: 'PENDING',
    });
  });
});

/**
 * Every validation rule of WIRE §1, one check each: the market answers 400 problem+json whose
 * `errors[].path` names the offending field in wire form, and never passes the order on to the service.
 */
import { ensure, expectProblem, problemPaths } from '../expect.js';
import { type OrderRequest, postOrder, sampleOrder } from '../support/orders.js';
import type { ContractCheck } from '../types.js';

type Line = Record<string, unknown> & { unit_price: { value: unknown }; subtotal: { value: unknown } };

interface ValidationCase {
  slug: string;
  title: string;
  /** Breaks one rule of a valid request. */
  breakIt(order: OrderRequest, line: Line): void;
  /** The wire path that must appear in `errors[].path`. */
  path: string;
  /** Text the problem must contain somewhere (detail or an error message). */
  mentions?: string;
}

const CASES: ValidationCase[] = [
  {
    slug: 'reference-id-missing',
    title: 'reference_id missing',
    path: 'reference_id',
    breakIt: (o) => {
      delete (o as Partial<OrderRequest>).reference_id;
    },
  },
  {
    slug: 'reference-id-too-long',
    title: 'reference_id of 256 characters',
    path: 'reference_id',
    breakIt: (o) => {
      o.reference_id = 'r'.repeat(256);
    },
  },
  {
    slug: 'total-amount-missing',
    title: 'total_amount missing',
    path: 'total_amount',
    breakIt: (o) => {
      delete (o as Partial<OrderRequest>).total_amount;
    },
  },
  {
    slug: 'amount-decimal-point',
    title: 'an amount with a decimal point',
    path: 'total_amount.value',
    breakIt: (o) => {
      o.total_amount.value = '349000.00';
    },
  },
  {
    slug: 'amount-negative',
    title: 'a negative unit price',
    path: 'order_lines[0].unit_price.value',
    breakIt: (_, l) => {
      l.unit_price.value = '-150000';
    },
  },
  {
    slug: 'amount-leading-zero',
    title: 'an amount with a leading zero',
    path: 'total_amount.value',
    breakIt: (o) => {
      o.total_amount.value = '0349000';
    },
  },
  {
    slug: 'amount-too-many-digits',
    title: 'an amount of 16 digits',
    path: 'total_amount.value',
    breakIt: (o) => {
      o.total_amount.value = '1234567890123456';
    },
  },
  {
    slug: 'amount-as-number',
    title: 'an amount sent as a JSON number',
    path: 'total_amount.value',
    breakIt: (o) => {
      (o.total_amount as { value: unknown }).value = 349000;
    },
  },
  {
    slug: 'currency-not-vnd',
    title: 'a currency other than VND',
    path: 'total_amount.currency',
    breakIt: (o) => {
      o.total_amount.currency = 'USD';
    },
  },
  {
    slug: 'order-lines-empty',
    title: 'no order lines',
    path: 'order_lines',
    breakIt: (o) => {
      o.order_lines = [];
    },
  },
  {
    slug: 'quantity-zero',
    title: 'quantity 0',
    path: 'order_lines[0].quantity',
    breakIt: (_, l) => {
      l.quantity = 0;
    },
  },
  {
    slug: 'quantity-too-large',
    title: 'quantity 10001',
    path: 'order_lines[0].quantity',
    breakIt: (_, l) => {
      l.quantity = 10_001;
    },
  },
  {
    slug: 'quantity-fraction',
    title: 'quantity 1.5',
    path: 'order_lines[0].quantity',
    breakIt: (_, l) => {
      l.quantity = 1.5;
    },
  },
  {
    slug: 'measment-unit-wrong',
    title: 'measment_unit other than EACH',
    path: 'order_lines[0].measment_unit',
    breakIt: (_, l) => {
      l.measment_unit = 'KG';
    },
  },
  {
    slug: 'measurement-unit-misspelled',
    title: 'measurement_unit used instead of measment_unit',
    path: 'order_lines[0].measment_unit',
    mentions: 'measment_unit',
    breakIt: (_, l) => {
      l.measurement_unit = l.measment_unit;
      delete l.measment_unit;
    },
  },
  {
    slug: 'subtotal-mismatch',
    title: 'a subtotal that is not quantity × unit_price',
    path: 'order_lines[0].subtotal.value',
    // The total still equals the sum of subtotals, so only the line is wrong.
    breakIt: (o, l) => {
      l.subtotal.value = '300001';
      o.total_amount.value = '349001';
    },
  },
  {
    slug: 'total-mismatch',
    title: 'a total that is not the sum of subtotals',
    path: 'total_amount.value',
    breakIt: (o) => {
      o.total_amount.value = '349001';
    },
  },
  {
    slug: 'image-url-relative',
    title: 'a relative image_url',
    path: 'order_lines[0].image_url',
    breakIt: (_, l) => {
      l.image_url = '/images/tee.jpg';
    },
  },
  {
    slug: 'product-url-not-http',
    title: 'a product_url that is not http(s)',
    path: 'order_lines[0].product_url',
    breakIt: (_, l) => {
      l.product_url = 'ftp://shop.example.com/tee';
    },
  },
  {
    slug: 'line-name-empty',
    title: 'an empty line name',
    path: 'order_lines[0].name',
    breakIt: (_, l) => {
      l.name = '';
    },
  },
  {
    slug: 'line-reference-too-long',
    title: 'a line reference_id of 256 characters',
    path: 'order_lines[0].reference_id',
    breakIt: (_, l) => {
      l.reference_id = 's'.repeat(256);
    },
  },
];

function validationCheck(c: ValidationCase): ContractCheck {
  return {
    id: `orders.validation.${c.slug}`,
    title: `An order with ${c.title} is a 400 naming ${c.path}`,
    modes: ['basic', 'data-sharing'],
    spec: 'WIRE §1',
    async run(ctx) {
      const order = sampleOrder(ctx.unique('ref'));
      c.breakIt(order, order.order_lines[0] as Line);
      const exchange = await postOrder(ctx, order);
      const problem = expectProblem(exchange, 400, {
        what: `for an order with ${c.title}`,
        code: 'validation_failed',
      });
      const paths = problemPaths(problem);
      ensure(paths.includes(c.path), {
        expected: `errors[].path to include "${c.path}" for an order with ${c.title}`,
        actual: `paths ${JSON.stringify(paths)}`,
        exchange,
        spec: 'WIRE §1, §2',
      });
      if (c.mentions !== undefined) {
        ensure(exchange.text.includes(c.mentions), {
          expected: `the problem to name the expected spelling "${c.mentions}"`,
          exchange,
          spec: 'WIRE §1',
        });
      }
      if (typeof order.reference_id === 'string') {
        const atService = await ctx.sandbox.ordersByReference(order.reference_id);
        ensure(atService.length === 0, {
          expected: 'an invalid order to be refused before it reaches the service',
          actual: `the service holds order ${atService[0]?.id}`,
          spec: 'WIRE §1',
        });
      }
    },
  };
}

export const orderValidationChecks: ContractCheck[] = CASES.map(validationCheck);

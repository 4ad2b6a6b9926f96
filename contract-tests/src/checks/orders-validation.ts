/**
 * Every validation rule of WIRE §1, one check each: the market answers 400 problem+json whose
 * `errors[].path` names the offending field in wire form, and never passes the order on to the service.
 */
import { ensure, expectProblem, problemPaths } from '../expect.js';
import { postOrder, sampleOrder } from '../support/orders.js';
import type { ContractCheck } from '../types.js';

/** Marks a field a case leaves out of the request. */
const ABSENT = Symbol('absent');

interface ValidationCase {
  slug: string;
  title: string;
  /** The wire path that must appear in `errors[].path`; the case sets it to `value`. */
  path: string;
  value: unknown;
  /** Further fields the case sets (wire path → value), so that only `path` is wrong. */
  also?: Record<string, unknown>;
  /** Text the problem must contain somewhere (detail or an error message). */
  mentions?: string;
}

// The wrong values are derived from the fixture's own amounts, so each case breaks one rule only.
const FIXTURE = sampleOrder('fixture');
const TOTAL = FIXTURE.total_amount.value;
const LINE = FIXTURE.order_lines[0]!;
const plusOne = (amount: string) => String(BigInt(amount) + 1n);

// biome-ignore format: one case per line reads as the table it is
const CASES: ValidationCase[] = [
  { slug: 'reference-id-missing', title: 'reference_id missing', path: 'reference_id', value: ABSENT },
  { slug: 'reference-id-too-long', title: 'reference_id of 256 characters', path: 'reference_id', value: 'r'.repeat(256) },
  { slug: 'total-amount-missing', title: 'total_amount missing', path: 'total_amount', value: ABSENT },
  { slug: 'amount-decimal-point', title: 'an amount with a decimal point', path: 'total_amount.value', value: `${TOTAL}.00` },
  { slug: 'amount-negative', title: 'a negative unit price', path: 'order_lines[0].unit_price.value', value: `-${LINE.unit_price.value}` },
  { slug: 'amount-leading-zero', title: 'an amount with a leading zero', path: 'total_amount.value', value: `0${TOTAL}` },
  { slug: 'amount-too-many-digits', title: 'an amount of 16 digits', path: 'total_amount.value', value: '1234567890123456' },
  { slug: 'amount-as-number', title: 'an amount sent as a JSON number', path: 'total_amount.value', value: Number(TOTAL) },
  { slug: 'currency-not-vnd', title: 'a currency other than VND', path: 'total_amount.currency', value: 'USD' },
  { slug: 'order-lines-empty', title: 'no order lines', path: 'order_lines', value: [] },
  { slug: 'quantity-zero', title: 'quantity 0', path: 'order_lines[0].quantity', value: 0 },
  { slug: 'quantity-too-large', title: 'quantity 10001', path: 'order_lines[0].quantity', value: 10_001 },
  { slug: 'quantity-fraction', title: 'quantity 1.5', path: 'order_lines[0].quantity', value: 1.5 },
  { slug: 'measment-unit-wrong', title: 'measment_unit other than EACH', path: 'order_lines[0].measment_unit', value: 'KG' },
  {
    slug: 'measurement-unit-misspelled',
    title: 'measurement_unit used instead of measment_unit',
    path: 'order_lines[0].measment_unit',
    value: ABSENT,
    also: { 'order_lines[0].measurement_unit': LINE.measment_unit },
    mentions: 'measment_unit',
  },
  {
    slug: 'subtotal-mismatch',
    title: 'a subtotal that is not quantity × unit_price',
    path: 'order_lines[0].subtotal.value',
    value: plusOne(LINE.subtotal.value),
    // The total still equals the sum of subtotals, so only the line is wrong.
    also: { 'total_amount.value': plusOne(TOTAL) },
  },
  { slug: 'total-mismatch', title: 'a total that is not the sum of subtotals', path: 'total_amount.value', value: plusOne(TOTAL) },
  { slug: 'image-url-relative', title: 'a relative image_url', path: 'order_lines[0].image_url', value: new URL(String(LINE.image_url)).pathname },
  { slug: 'product-url-not-http', title: 'a product_url that is not http(s)', path: 'order_lines[0].product_url', value: String(LINE.product_url).replace(/^https?:/, 'ftp:') },
  { slug: 'line-name-empty', title: 'an empty line name', path: 'order_lines[0].name', value: '' },
  { slug: 'line-reference-too-long', title: 'a line reference_id of 256 characters', path: 'order_lines[0].reference_id', value: 's'.repeat(256) },
];

/** The rule of WIRE §1 each case breaks (docs/protocol.md's IDs). */
const RULES: Record<string, string[]> = {
  'reference-id-missing': ['R-LINE-07'],
  'reference-id-too-long': ['R-LINE-07'],
  'total-amount-missing': ['R-ORDER-01'],
  'amount-decimal-point': ['R-MONEY-02'],
  'amount-negative': ['R-MONEY-02'],
  'amount-leading-zero': ['R-MONEY-02'],
  'amount-too-many-digits': ['R-MONEY-02'],
  'amount-as-number': ['R-MONEY-02'],
  'currency-not-vnd': ['R-MONEY-01'],
  'order-lines-empty': ['R-LINE-01'],
  'quantity-zero': ['R-LINE-04'],
  'quantity-too-large': ['R-LINE-04'],
  'quantity-fraction': ['R-LINE-04'],
  'measment-unit-wrong': ['R-LINE-02'],
  'measurement-unit-misspelled': ['R-LINE-03', 'R-LINE-08'],
  'subtotal-mismatch': ['R-LINE-05'],
  'total-mismatch': ['R-ORDER-01'],
  'image-url-relative': ['R-LINE-06'],
  'product-url-not-http': ['R-LINE-06'],
  'line-name-empty': ['R-LINE-07'],
  'line-reference-too-long': ['R-LINE-07'],
};

/** Sets (or, with ABSENT, removes) the field at a wire path such as `order_lines[0].unit_price.value`. */
function setAt(target: Record<string, unknown>, path: string, value: unknown): void {
  const keys = path.split(/[.[\]]+/).filter((k) => k !== '');
  const last = keys.pop()!;
  let node = target;
  for (const key of keys) node = node[key] as Record<string, unknown>;
  if (value === ABSENT) delete node[last];
  else node[last] = value;
}

function validationCheck(c: ValidationCase): ContractCheck {
  return {
    id: `orders.validation.${c.slug}`,
    title: `An order with ${c.title} is a 400 naming ${c.path}`,
    modes: ['basic', 'data-sharing'],
    spec: 'WIRE §1',
    rules: [...(RULES[c.slug] ?? []), 'R-ORDER-03', 'R-ERR-03', 'R-ERR-04'],
    async run(ctx) {
      const order = sampleOrder(ctx.unique('ref'));
      for (const [path, value] of Object.entries({ ...c.also, [c.path]: c.value })) setAt(order, path, value);
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
        // R-LINE-08: the `message` of the entry whose path is the field names it, not merely the
        // path (which holds the spelling whatever the message says, "must be EACH" included).
        const messages = (problem.errors ?? []).filter((e) => e.path === c.path).map((e) => e.message);
        ensure(
          messages.some((m) => typeof m === 'string' && m.includes(c.mentions!)),
          {
            expected: `the message of the errors[] entry at ${c.path} to name the expected spelling "${c.mentions}"`,
            actual: `messages ${JSON.stringify(messages)}`,
            exchange,
            spec: 'WIRE §1',
          },
        );
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

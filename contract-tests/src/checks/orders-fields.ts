/**
 * Every field of the order request varied one at a time against its rule (WIRE §1), with generated
 * wrong values (fast-check at the run's seed): wrong JSON types (`quantity: true`), amounts in
 * another currency on a line, bounds. Each must be refused by the market itself (400 problem), never
 * relayed to the service (a 502), and never reach it.
 */
import fc from 'fast-check';
import { ensure, expectProblem } from '../expect.js';
import { generated } from '../support/generated.js';
import { postOrder, sampleOrder } from '../support/orders.js';
import { BOTH_MODES, type ContractCheck } from '../types.js';

/** Every wrong JSON type of a field, sent each time (not sampled): `quantity: true` is the classic. */
const WRONG_TYPES: Record<'string' | 'number' | 'object', unknown[]> = {
  string: [true, 42, null, { value: 'x' }],
  number: [true, '7', null, [2]],
  object: [true, 'x', null, []],
};

/** Wrong JSON types for any field. */
const wrongType = (keep: 'string' | 'number' | 'object') =>
  fc
    .constantFrom<unknown>(true, false, null, 42, -1, '7', [], {}, 'x')
    .filter((v) =>
      keep === 'string'
        ? typeof v !== 'string'
        : keep === 'number'
          ? typeof v !== 'number'
          : typeof v !== 'object' || v === null || Array.isArray(v),
    );

/** Currency codes that are not VND, as teams get them wrong (case, other ISO codes, empty). */
const otherCurrency = fc.oneof(
  fc.constantFrom('USD', 'EUR', 'vnd', 'Vnd', 'VN', 'VND ', '', 'đ', '₫'),
  fc.stringMatching(/^[A-Z]{3}$/).filter((c) => c !== 'VND'),
);

const badAmountValue = fc.oneof(
  wrongType('string'),
  fc.constantFrom('', ' 1', '1e3', '0x10', '+5', '1_000', '１２'),
  fc.integer({ min: 1, max: 9 }).map((n) => `${n}.5`),
);

const badText = fc.oneof(
  wrongType('string'),
  fc.constant(''),
  fc.integer({ min: 256, max: 300 }).map((n) => 'x'.repeat(n)),
);

const badUrl = fc.oneof(
  wrongType('string'),
  fc.constantFrom(
    'javascript:alert(1)',
    '//cdn.example/x.png',
    'example.com/x',
    'ftp://example.com/x',
    '/x.png',
  ),
);

/** Field (wire path), its JSON type, and a generator of values of that type that break its rule. */
const FIELDS: [path: string, type: keyof typeof WRONG_TYPES, wrong: fc.Arbitrary<unknown>][] = [
  ['reference_id', 'string', badText],
  ['total_amount', 'object', wrongType('object')],
  ['total_amount.currency', 'string', otherCurrency],
  ['total_amount.value', 'string', badAmountValue],
  ['order_lines', 'object', fc.constantFrom<unknown>(null, {}, 'lines', 3)],
  ['order_lines[0]', 'object', wrongType('object')],
  ['order_lines[0].name', 'string', badText],
  ['order_lines[0].reference_id', 'string', badText],
  ['order_lines[0].image_url', 'string', badUrl],
  ['order_lines[0].product_url', 'string', badUrl],
  ['order_lines[0].quantity', 'number', fc.constantFrom(0, -1, 10_001, 1.5, 1e21, 2 ** 53)],
  ['order_lines[0].measment_unit', 'string', fc.constantFrom('each', 'KG', 'PCS', '')],
  ['order_lines[0].unit_price', 'object', wrongType('object')],
  ['order_lines[0].unit_price.currency', 'string', otherCurrency],
  ['order_lines[0].unit_price.value', 'string', badAmountValue],
  ['order_lines[0].subtotal.currency', 'string', otherCurrency],
  ['order_lines[0].subtotal.value', 'string', badAmountValue],
];

function setAt(target: Record<string, unknown>, path: string, value: unknown): void {
  const keys = path.split(/[.[\]]+/).filter((k) => k !== '');
  const last = keys.pop()!;
  let node = target;
  for (const key of keys) node = node[key] as Record<string, unknown>;
  node[last] = value;
}

export const orderFieldChecks: ContractCheck[] = [
  {
    id: 'orders.fields.one-at-a-time',
    title:
      'Every order field set to generated values that break its rule is a 400 from the market, never a 502',
    modes: BOTH_MODES,
    spec: 'WIRE §1',
    rules: [
      'R-ORDER-02',
      'R-ORDER-03',
      'R-MONEY-01',
      'R-MONEY-02',
      'R-LINE-04',
      'R-LINE-06',
      'R-LINE-07',
      'R-ERR-04',
    ],
    async run(ctx) {
      for (const [index, [path, type, wrong]] of FIELDS.entries()) {
        for (const value of [...WRONG_TYPES[type], ...generated(ctx, wrong, 2, index)]) {
          const order = sampleOrder(ctx.unique('ref'));
          setAt(order, path, value);
          const exchange = await postOrder(ctx, order);
          expectProblem(exchange, 400, {
            what: `for an order whose ${path} is ${JSON.stringify(value)} (every other field valid; seed ${ctx.seed})`,
            spec: 'WIRE §1',
          });
          if (typeof order.reference_id !== 'string') continue;
          const atService = await ctx.sandbox.ordersByReference(order.reference_id);
          ensure(atService.length === 0, {
            expected: `an order whose ${path} is ${JSON.stringify(value)} to be refused before it reaches the service`,
            actual: `the service holds order ${atService[0]?.id}`,
            spec: 'WIRE §1',
          });
        }
      }
      // Amount bounds with the arithmetic consistent (one line of quantity 1, every amount the same
      // value), so that only the amount rule itself can refuse them: 16 digits, leading zeros.
      for (const value of ['1'.repeat(16), '0100', '00']) {
        const order = sampleOrder(ctx.unique('ref'));
        const line = { ...order.order_lines[0]!, quantity: 1 };
        line.unit_price = { ...line.unit_price, value };
        line.subtotal = { ...line.subtotal, value };
        order.order_lines = [line];
        order.total_amount = { ...order.total_amount, value };
        expectProblem(await postOrder(ctx, order), 400, {
          what: `for an order whose every amount is "${value}" (sums consistent; WIRE §1: at most 15 digits, no leading zero)`,
          spec: 'WIRE §1',
        });
      }
    },
  },
];

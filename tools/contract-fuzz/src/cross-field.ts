/**
 * The cross-field rules an operation lists in `x-bnpl-rules` (what JSON Schema cannot say), judged
 * from the outside: for a body valid by the document, which listed rules it breaks. Written from
 * docs/protocol.md's rule text, not imported from the kit, so the fuzz does not take the servers'
 * word for what their rules are. A rule this file cannot judge (the offer conditions' well-formedness)
 * is "not judged": a refusal that only it could explain is counted, not failed.
 */

export interface RequestParts {
  /** The JSON body as sent (before any mutation). */
  value: unknown;
  /** The path parameters as sent. */
  params: Record<string, unknown>;
}

type Judged = (request: RequestParts) => boolean;

interface Money {
  value: string;
  currency: string;
}
interface Line {
  quantity: number;
  unit_price: Money;
  subtotal: Money;
}
interface OrderBody {
  total_amount: Money;
  order_lines: Line[];
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const isMoney = (value: unknown): value is Money =>
  isObject(value) && typeof value.value === 'string' && typeof value.currency === 'string';

function orderOf(value: unknown): OrderBody | undefined {
  if (!isObject(value) || !isMoney(value.total_amount) || !Array.isArray(value.order_lines)) return undefined;
  const linesAreWhole = value.order_lines.every(
    (line) =>
      isObject(line) &&
      typeof line.quantity === 'number' &&
      isMoney(line.unit_price) &&
      isMoney(line.subtotal),
  );
  return linesAreWhole ? (value as unknown as OrderBody) : undefined;
}

const amount = (money: Money): bigint => BigInt(money.value);

/** Every string member of the body, and every path parameter. */
function stringsOf(request: RequestParts): string[] {
  const out: string[] = [];
  const walk = (value: unknown): void => {
    if (typeof value === 'string') out.push(value);
    else if (Array.isArray(value)) value.forEach(walk);
    else if (isObject(value)) Object.values(value).forEach(walk);
  };
  walk(request.value);
  walk(request.params);
  return out;
}

/** WHATWG URL parsing, http(s) only. */
function parsesAsWebUrl(text: unknown): boolean {
  if (typeof text !== 'string') return true;
  try {
    return ['http:', 'https:'].includes(new URL(text).protocol);
  } catch {
    return false;
  }
}

/** A high surrogate not followed by a low one, or a low one not preceded by a high one. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

const MISSING_VALUE_TEXTS = ['undefined', 'null', 'nan', '[object object]'];

/** Whether the request breaks the rule, per rule ID. */
const BROKEN: Record<string, Judged> = {
  'R-ORDER-01': ({ value }) => {
    const order = orderOf(value);
    if (!order) return false;
    const sum = order.order_lines.reduce((total, line) => total + amount(line.subtotal), 0n);
    return amount(order.total_amount) !== sum;
  },
  'R-ORDER-02': ({ value }) => {
    const order = orderOf(value);
    if (!order) return false;
    const currencies = new Set([
      order.total_amount.currency,
      ...order.order_lines.flatMap((line) => [line.unit_price.currency, line.subtotal.currency]),
    ]);
    return currencies.size > 1;
  },
  'R-LINE-05': ({ value }) =>
    orderOf(value)?.order_lines.some(
      (line) => amount(line.subtotal) !== BigInt(line.quantity) * amount(line.unit_price),
    ) ?? false,
  'R-LINE-06': ({ value }) =>
    isObject(value) &&
    Array.isArray(value.order_lines) &&
    value.order_lines.some(
      (line) => isObject(line) && !(parsesAsWebUrl(line.image_url) && parsesAsWebUrl(line.product_url)),
    ),
  'R-EP-10': ({ value }) => isObject(value) && isObject(value.invoice) && !parsesAsWebUrl(value.invoice.url),
  'R-LINE-07': (request) => stringsOf(request).some((text) => LONE_SURROGATE.test(text)),
  'R-CLAIM-09': ({ value, params }) => {
    const ids = [params.id, ...(isObject(value) ? [value.id, value.credify_id] : [])];
    return ids.some((id) => typeof id === 'string' && MISSING_VALUE_TEXTS.includes(id.toLowerCase()));
  },
};

export interface RuleVerdict {
  /** Listed rules the request breaks. */
  broken: string[];
  /** Listed rules this file cannot judge. */
  notJudged: string[];
}

/** Which of `listed` (an operation's `x-bnpl-rules` IDs) the request breaks. */
export function rulesBrokenBy(listed: readonly string[], request: RequestParts): RuleVerdict {
  const broken: string[] = [];
  const notJudged: string[] = [];
  for (const id of listed) {
    const judged = BROKEN[id];
    if (!judged) notJudged.push(id);
    else if (judged(request)) broken.push(id);
  }
  return { broken, notJudged };
}

/** The IDs this file judges (test/cross-field.test.ts ties them to the documents' rule lists). */
export const JUDGED_RULES: readonly string[] = Object.keys(BROKEN);

/**
 * Listed rules refused with 400 that this file does not judge: the offer conditions' shape, and the
 * sandbox admin API's signing-key format.
 */
export const NOT_JUDGED_RULES: readonly string[] = ['R-OFFER-07', 'R-OFFER-10', 'R-CONF-03'];

const MAX_UNIT_PRICE = 10n ** 9n;

/**
 * An order body made to satisfy the sum rules (R-LINE-05, R-ORDER-01, R-ORDER-02): each line's
 * subtotal is its quantity × unit price, the total their sum, every amount in the total's currency,
 * and the total above 0. Unit prices are cut below 10^9 so that 10^4 units of a few lines stay
 * within the documented 15 digits. Anything that is not an order comes back unchanged.
 */
export function balanced(value: unknown): unknown {
  const order = orderOf(value);
  if (!order || order.order_lines.length === 0) return value;
  const currency = order.total_amount.currency;
  const lines = order.order_lines.map((line, index) => {
    let unit = amount(line.unit_price) % MAX_UNIT_PRICE;
    if (index === 0 && unit === 0n) unit = 1n;
    return {
      ...line,
      unit_price: { ...line.unit_price, value: String(unit), currency },
      subtotal: { ...line.subtotal, value: String(unit * BigInt(line.quantity)), currency },
    };
  });
  const total = lines.reduce((sum, line) => sum + BigInt(line.subtotal.value), 0n);
  return { ...order, order_lines: lines, total_amount: { ...order.total_amount, value: String(total) } };
}

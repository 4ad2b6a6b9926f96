/** Orders: the create request the market receives, the record it answers with, and service orders. */
import * as z from 'zod';
import { type Amount, amountCodec, positiveAmountCodec, toBigInt } from './money.js';
import { orderLineCodec, orderLineSchema } from './order-line.js';
import { orderStatusSchema } from './status.js';
import { httpUrl, safeText } from './text.js';
import { field, nested, nestedArray, optionalNested, wireObject } from './wire.js';

const orderLines = { schema: orderLineSchema, encode: orderLineCodec.encode };
const referenceId = safeText();

/**
 * `order_lines` of an order being created, at the market and at the service alike: at least one
 * line, at most 500.
 */
export const newOrderLinesField = nestedArray('order_lines', orderLines, (line) =>
  z
    .array(line)
    .min(1, { error: 'an order needs at least one line' })
    .max(500, { error: 'at most 500 lines' }),
);

/** `POST /v1/orders` body (specification: Order create request). */
export const orderCreateRequestCodec = wireObject({
  referenceId: field('reference_id', referenceId),
  totalAmount: nested('total_amount', positiveAmountCodec),
  orderLines: newOrderLinesField,
});

/**
 * The order totals rule (WIRE §1), one home for the market's endpoint and the service's (the
 * sandbox validates with it): every amount in the total's currency, unit prices included
 * [R-ORDER-02]; the total equal to the sum of the line subtotals [R-ORDER-01]. A total greater
 * than 0 is not checked here: both codecs read the total with `positiveAmountCodec`, whose pattern
 * is what the documents say.
 */
export function checkOrderTotals(
  order: { totalAmount: Amount; orderLines: readonly { unitPrice: Amount; subtotal: Amount }[] },
  ctx: z.RefinementCtx,
): void {
  const currency = order.totalAmount.currency;
  let consistent = true;
  order.orderLines.forEach((line, i) => {
    if (line.subtotal.currency !== currency || line.unitPrice.currency !== currency) {
      consistent = false;
      ctx.addIssue({
        code: 'custom',
        path: ['order_lines', i, 'subtotal', 'currency'],
        message: `must be ${currency}`,
      });
    }
  });
  const sum = sumSubtotals(order.orderLines);
  if (consistent && sum !== toBigInt(order.totalAmount)) {
    ctx.addIssue({
      code: 'custom',
      path: ['total_amount', 'value'],
      message: `must equal the sum of the line subtotals, ${sum.toString()}; got ${order.totalAmount.value}`,
    });
  }
}

export const orderCreateRequestSchema = orderCreateRequestCodec.schema.superRefine(checkOrderTotals);

export type OrderCreateRequest = z.output<typeof orderCreateRequestSchema>;

/**
 * Present only when the service reported a status outside the six (WIRE §6, tolerant reading): its
 * raw value, next to the stored `status` the market kept.
 */
const serviceStatus = z.string().optional();

/**
 * An RFC 3339 date-time with its offset: `YYYY-MM-DDTHH:MM:SS`, an optional fraction, then `Z` or
 * `±HH:MM` (WIRE §5, R-EP-26). A local time without an offset names no instant. The documents carry
 * the pattern, so certify holds every market's answers to it.
 */
export const dateTimeWithOffset = z
  .string()
  .datetime({ offset: true, error: 'must be an ISO 8601 date-time' })
  .meta({
    description:
      'RFC 3339 date-time with its offset: YYYY-MM-DDTHH:MM:SS, an optional fraction, then Z or ±HH:MM',
  });

/** The order record the market answers with. `totalAmount` is camelCase on the wire (specification). */
export const orderRecordCodec = wireObject({
  id: field('id', z.string().min(1)),
  referenceId: field('reference_id', z.string()),
  totalAmount: nested('totalAmount', amountCodec),
  status: field('status', orderStatusSchema),
  serviceStatus: field('service_status', serviceStatus),
});
/** `GET /v1/orders/service/:id` response body (WIRE §5). */
export const orderStatusInfoCodec = wireObject({
  id: field('id', z.string().min(1)),
  referenceId: field('reference_id', z.string()),
  status: field('status', orderStatusSchema),
  totalAmount: nested('total_amount', amountCodec),
  updatedAt: field('updated_at', dateTimeWithOffset),
  serviceStatus: field('service_status', serviceStatus),
});
/** Cancel and disburse answer `202 { id, status }`. */
export const orderActionResultCodec = wireObject({
  id: field('id', z.string().min(1)),
  status: field('status', orderStatusSchema),
  serviceStatus: field('service_status', serviceStatus),
});

/** Optional disburse body: `{ invoice: { number, url, issued_at } }` (WIRE §5). */
export const invoiceCodec = wireObject({
  number: field('number', safeText()),
  url: field('url', httpUrl().optional()),
  issuedAt: field('issued_at', dateTimeWithOffset.optional()),
});
export type Invoice = z.output<typeof invoiceCodec.schema>;

export const disburseRequestCodec = wireObject({
  invoice: optionalNested('invoice', invoiceCodec),
});

export function sumSubtotals(lines: readonly { subtotal: Amount }[]): bigint {
  return lines.reduce((sum, line) => sum + toBigInt(line.subtotal), 0n);
}

import * as z from 'zod';
import { amountCodec, toBigInt } from './money.js';
import { httpUrl, safeText } from './text.js';
import { field, nested, wireObject } from './wire.js';

const MEASUREMENT_UNITS = ['EACH'] as const;

const text255 = safeText();

export const orderLineCodec = wireObject(
  {
    name: field('name', text255),
    referenceId: field('reference_id', text255),
    imageUrl: field('image_url', httpUrl()),
    productUrl: field('product_url', httpUrl()),
    quantity: field(
      'quantity',
      z
        .number({ error: 'must be an integer' })
        .int({ error: 'must be an integer' })
        .min(1, { error: 'must be at least 1' })
        .max(10_000, { error: 'must be at most 10000' }),
    ),
    // The specification spells this key "measment_unit" (sic); the model uses the real word.
    measurementUnit: field('measment_unit', z.enum(MEASUREMENT_UNITS, { error: 'must be "EACH"' })),
    unitPrice: nested('unit_price', amountCodec),
    subtotal: nested('subtotal', amountCodec),
  },
  {
    check(wire, ctx) {
      // The most common mistake is the dictionary spelling; say exactly what the wire wants.
      if ('measurement_unit' in wire && !('measment_unit' in wire)) {
        ctx.addIssue({
          code: 'custom',
          path: ['measment_unit'],
          message: 'use the key "measment_unit" (spelled so by the specification), not "measurement_unit"',
        });
      }
    },
  },
);

export const orderLineSchema = orderLineCodec.schema.superRefine((line, ctx) => {
  if (line.unitPrice.currency !== line.subtotal.currency) {
    ctx.addIssue({
      code: 'custom',
      path: ['subtotal', 'currency'],
      message: 'must equal unit_price.currency',
    });
    return;
  }
  const expected = toBigInt(line.unitPrice) * BigInt(line.quantity);
  if (toBigInt(line.subtotal) !== expected) {
    ctx.addIssue({
      code: 'custom',
      path: ['subtotal', 'value'],
      message: `must be quantity × unit_price = ${expected.toString()}, got ${line.subtotal.value}`,
    });
  }
});

export type OrderLine = z.output<typeof orderLineSchema>;

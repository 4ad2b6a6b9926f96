/**
 * Money per WIRE §1. VND has no minor unit, so an amount is a string of ASCII digits and every
 * piece of arithmetic is BigInt: floating point would silently lose đồng above 2^53.
 */
import * as z from 'zod';
import { KitError } from '../errors.js';
import { field, wireObject } from './wire.js';

const CURRENCIES = ['VND'] as const;
export type Currency = (typeof CURRENCIES)[number];

const MAX_AMOUNT_DIGITS = 15;

const amountValueSchema = z
  .string({ error: 'must be a string of digits, e.g. "150000"' })
  .regex(/^(0|[1-9][0-9]*)$/, {
    error: 'must be ASCII digits with no sign, decimal point, spaces or leading zeros (e.g. "150000")',
  })
  .max(MAX_AMOUNT_DIGITS, { error: `must have at most ${MAX_AMOUNT_DIGITS} digits` });

const currencySchema = z.enum(CURRENCIES, { error: 'currency must be "VND", the only one in use' });

export const amountCodec = wireObject({
  value: field('value', amountValueSchema),
  currency: field('currency', currencySchema),
});
export const amountSchema = amountCodec.schema;

/**
 * An amount that must be more than nothing (an order's total: nothing to pay is not an order the
 * service can finance). A pattern rather than a refine, so the documents say it too.
 */
export const positiveAmountCodec = wireObject({
  value: field('value', amountValueSchema.regex(/^[1-9]/, { error: 'must be greater than 0' })),
  currency: field('currency', currencySchema),
});
export type Amount = z.output<typeof amountSchema>;

export function amount(value: bigint | number | string, currency: Currency = 'VND'): Amount {
  const big = typeof value === 'bigint' ? value : BigInt(value);
  if (big < 0n) throw new KitError('validation_failed', 'An amount cannot be negative');
  const text = big.toString();
  if (text.length > MAX_AMOUNT_DIGITS) throw new KitError('validation_failed', 'Amount exceeds 15 digits');
  return { value: text, currency };
}

export function toBigInt(a: Amount): bigint {
  return BigInt(a.value);
}

function sameCurrency(a: Amount, b: Amount): boolean {
  return a.currency === b.currency;
}

export function addAmounts(a: Amount, b: Amount): Amount {
  if (!sameCurrency(a, b))
    throw new KitError('validation_failed', `Cannot add ${a.currency} to ${b.currency}`);
  return amount(toBigInt(a) + toBigInt(b), a.currency);
}

export function multiplyAmount(a: Amount, quantity: number | bigint): Amount {
  return amount(toBigInt(a) * BigInt(quantity), a.currency);
}

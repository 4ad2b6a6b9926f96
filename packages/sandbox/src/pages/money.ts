/** Display helpers for amounts (digit strings, WIRE §1): BigInt arithmetic, never floating point. */
import type { Amount } from '@bnpl-kit/core';

/** `1234567` → `1,234,567 VND`. */
export function formatAmount(amount: Amount): string {
  return `${amount.value.replace(/\B(?=(\d{3})+(?!\d))/g, ',')} ${amount.currency}`;
}

/** Splits a total into `count` instalments; the first carries the remainder, so they sum exactly. */
export function instalments(total: Amount, count: number): Amount[] {
  const value = BigInt(total.value);
  const share = value / BigInt(count);
  const first = share + (value % BigInt(count));
  return Array.from({ length: count }, (_, i) => ({
    value: String(i === 0 ? first : share),
    currency: total.currency,
  }));
}

export function sumAmounts(amounts: Amount[], currency: Amount['currency'] = 'VND'): Amount {
  return { value: String(amounts.reduce((sum, a) => sum + BigInt(a.value), 0n)), currency };
}

import { randomBytes } from 'node:crypto';
import { wireOrder, wireOrderLine } from '@bnpl-kit/core/testing';

/**
 * A `POST /v1/orders` body: core's order fixture with one unit of `value` VND and a fresh
 * reference ID unless one is given.
 */
export function orderRequest(
  referenceId = `ref-${randomBytes(6).toString('hex')}`,
  value = '1500000',
): Record<string, unknown> {
  const amount = { value, currency: 'VND' };
  return wireOrder({
    reference_id: referenceId,
    total_amount: amount,
    order_lines: [wireOrderLine({ quantity: 1, unit_price: amount, subtotal: amount })],
  });
}

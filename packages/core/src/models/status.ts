/**
 * Order statuses and their transitions (WIRE §3):
 *   PENDING → APPROVED | CANCELED;  APPROVED → DISBURSING | CANCELING | CANCELED;
 *   DISBURSING → PAID;  CANCELING → CANCELED;  PAID and CANCELED are final.
 */
import { z } from 'zod';
import { KitError } from '../errors.js';

export const ORDER_STATUSES = ['PENDING', 'APPROVED', 'DISBURSING', 'CANCELING', 'PAID', 'CANCELED'] as const;
export type OrderStatus = (typeof ORDER_STATUSES)[number];

// Providers have been seen writing "approved" in prose; the wire value is upper case.
export const orderStatusSchema = z.preprocess(
  (v) => (typeof v === 'string' ? v.toUpperCase() : v),
  z.enum(ORDER_STATUSES, { error: `must be one of ${ORDER_STATUSES.join(', ')}` }),
);

const NEXT: Record<OrderStatus, readonly OrderStatus[]> = {
  PENDING: ['APPROVED', 'CANCELED'],
  APPROVED: ['DISBURSING', 'CANCELING', 'CANCELED'],
  DISBURSING: ['PAID'],
  CANCELING: ['CANCELED'],
  PAID: [],
  CANCELED: [],
};

export function isFinalStatus(status: OrderStatus): boolean {
  return NEXT[status].length === 0;
}

/** One direct step of the state machine. */
export function isDirectTransition(from: OrderStatus, to: OrderStatus): boolean {
  return NEXT[from].includes(to);
}

/**
 * A forward move: `to` can be reached from `from` along the state machine. Webhooks may arrive out
 * of order (PAID before APPROVED); accepting any reachable status, and ignoring everything else, makes
 * the stored status converge on the latest real one whatever the delivery order.
 */
function isForwardMove(from: OrderStatus, to: OrderStatus): boolean {
  const seen = new Set<OrderStatus>();
  const queue: OrderStatus[] = [...NEXT[from]];
  while (queue.length > 0) {
    const next = queue.shift()!;
    if (next === to) return true;
    if (seen.has(next)) continue;
    seen.add(next);
    queue.push(...NEXT[next]);
  }
  return false;
}

export type TransitionResult =
  | { changed: true; from: OrderStatus; status: OrderStatus }
  | { changed: false; from: OrderStatus; status: OrderStatus; reason: 'same_status' | 'not_forward' };

/**
 * Applies a status update the way a webhook receiver must: forward moves are taken, anything else
 * (a duplicate, a late delivery, a move out of a final state) leaves the status unchanged with a reason.
 */
export function transition(from: OrderStatus, to: OrderStatus): TransitionResult {
  if (from === to) return { changed: false, from, status: from, reason: 'same_status' };
  if (isForwardMove(from, to)) return { changed: true, from, status: to };
  return { changed: false, from, status: from, reason: 'not_forward' };
}

/** For market-initiated actions, which must start from an exact state (cancel needs APPROVED). */
export function assertStatusIn(current: OrderStatus, allowed: readonly OrderStatus[], action: string): void {
  if (!allowed.includes(current)) {
    throw new KitError(
      'invalid_transition',
      `Cannot ${action} an order in status ${current}; allowed from ${allowed.join(' or ')}`,
      { extensions: { current_status: current, allowed_statuses: allowed } },
    );
  }
}

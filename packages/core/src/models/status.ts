/**
 * Order statuses and their transitions (WIRE §3):
 *   PENDING → APPROVED | CANCELED;  APPROVED → DISBURSING | CANCELING | CANCELED;
 *   DISBURSING → PAID;  CANCELING → CANCELED;  PAID and CANCELED are final.
 */
import * as z from 'zod';
import { KitError } from '../errors.js';

export const ORDER_STATUSES = ['PENDING', 'APPROVED', 'DISBURSING', 'CANCELING', 'PAID', 'CANCELED'] as const;
export type OrderStatus = (typeof ORDER_STATUSES)[number];

/** WIRE §6 R-SVC-13: ASCII letters fold, nothing else ("paıd" with a dotless ı stays unknown). */
const asciiUpperCase = (value: string) => value.replace(/[a-z]+/g, (letters) => letters.toUpperCase());

// Providers have been seen writing "approved" in prose; the wire value is upper case.
export const orderStatusSchema = z.preprocess(
  (v) => (typeof v === 'string' ? asciiUpperCase(v) : v),
  z.enum(ORDER_STATUSES, { error: `must be one of ${ORDER_STATUSES.join(', ')}` }),
);

const KNOWN = new Set<string>(ORDER_STATUSES);

/** The known status a service value names (case-insensitively), or undefined for any other value. */
export function knownOrderStatus(value: string): OrderStatus | undefined {
  const upper = asciiUpperCase(value);
  return KNOWN.has(upper) ? (upper as OrderStatus) : undefined;
}

/**
 * A status as the service reports it (WIRE §6, tolerant reading): one of the six, or any other
 * value a real service may grow, kept verbatim so it can be reported as `service_status` instead of
 * failing the request. `(string & {})` keeps editor completion for the six.
 */
export type ServiceOrderStatus = OrderStatus | (string & {});

/** Known values are normalised to upper case; anything else non-empty is kept as sent. */
export const serviceOrderStatusSchema = z
  .string({ error: 'must be a string' })
  .min(1, { error: 'must not be empty' })
  .max(64, { error: 'must be at most 64 characters' })
  .transform((value): ServiceOrderStatus => knownOrderStatus(value) ?? value)
  .meta({ description: `Usually one of ${ORDER_STATUSES.join(', ')}; other values are read tolerantly.` });

const NEXT: Record<OrderStatus, readonly OrderStatus[]> = {
  PENDING: ['APPROVED', 'CANCELED'],
  APPROVED: ['DISBURSING', 'CANCELING', 'CANCELED'],
  DISBURSING: ['PAID'],
  CANCELING: ['CANCELED'],
  PAID: [],
  CANCELED: [],
};

/** Whether no move is left from the status (PAID, CANCELED). */
export function isFinalStatus(status: OrderStatus): boolean {
  return NEXT[status].length === 0;
}

/** The statuses with a move left, derived from the state machine (what reconciliation watches). */
export const OPEN_ORDER_STATUSES: readonly OrderStatus[] = Object.freeze(
  ORDER_STATUSES.filter((status) => !isFinalStatus(status)),
);

/**
 * Where readiness counts (WIRE §3 R-STATE-08): the stored status, once the event is applied, is
 * APPROVED or DISBURSING. Readiness for a PENDING order (the market has not heard of the approval)
 * or a CANCELING, CANCELED or PAID one is acknowledged and does nothing, then or later.
 */
export const READINESS_STATUSES: readonly OrderStatus[] = Object.freeze(['APPROVED', 'DISBURSING'] as const);

/** The actions the market's own systems ask of an order (WIRE §5, data-sharing mode). */
export const ORDER_ACTIONS = ['cancel', 'disburse'] as const;
export type OrderAction = (typeof ORDER_ACTIONS)[number];

/**
 * The statuses each action starts from (WIRE §5 R-EP-06, R-EP-08); from any other the action is a
 * 409 `invalid_transition` that reaches nothing at the service. The routes check it and certify's
 * action checks and races are derived from it.
 */
export const ACTION_ALLOWED_FROM: Readonly<Record<OrderAction, readonly OrderStatus[]>> = Object.freeze({
  cancel: Object.freeze(['APPROVED'] as const),
  disburse: Object.freeze(['APPROVED', 'DISBURSING'] as const),
});

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

const FORWARD_SOURCES = new Map<OrderStatus, readonly OrderStatus[]>();

/**
 * Every status from which `to` is a forward move (`transition(from, to).changed`), so a store can
 * guard a status update in SQL with the kit's own state machine. Computed once per target status.
 */
export function forwardSourcesOf(to: OrderStatus): readonly OrderStatus[] {
  let sources = FORWARD_SOURCES.get(to);
  if (sources === undefined) {
    sources = ORDER_STATUSES.filter((from) => from !== to && isForwardMove(from, to));
    FORWARD_SOURCES.set(to, sources);
  }
  return sources;
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

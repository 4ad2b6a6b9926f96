import { describe, expect, it } from 'vitest';
import { KitError } from '../src/errors.js';
import {
  assertStatusIn,
  isDirectTransition,
  isFinalStatus,
  knownOrderStatus,
  ORDER_STATUSES,
  type OrderStatus,
  orderStatusSchema,
  transition,
} from '../src/models/status.js';

const DIRECT: [OrderStatus, OrderStatus][] = [
  ['PENDING', 'APPROVED'],
  ['PENDING', 'CANCELED'],
  ['APPROVED', 'DISBURSING'],
  ['APPROVED', 'CANCELING'],
  ['APPROVED', 'CANCELED'],
  ['DISBURSING', 'PAID'],
  ['CANCELING', 'CANCELED'],
];
// Reachable through several steps: accepted from an out-of-order delivery.
const REACHABLE: [OrderStatus, OrderStatus][] = [
  ['PENDING', 'DISBURSING'],
  ['PENDING', 'PAID'],
  ['PENDING', 'CANCELING'],
  ['APPROVED', 'PAID'],
];

describe('order status transitions (WIRE §3)', () => {
  const all = ORDER_STATUSES.flatMap((from) =>
    ORDER_STATUSES.map((to) => [from, to] as [OrderStatus, OrderStatus]),
  );

  it.each(all)('%s → %s', (from, to) => {
    const result = transition(from, to);
    const key = (p: [OrderStatus, OrderStatus]) => p.join('>');
    const forward = [...DIRECT, ...REACHABLE].map(key).includes(key([from, to]));
    expect(result.changed).toBe(forward);
    expect(result.status).toBe(forward ? to : from);
    if (!result.changed) expect(result.reason).toBe(from === to ? 'same_status' : 'not_forward');
    expect(isDirectTransition(from, to)).toBe(DIRECT.map(key).includes(key([from, to])));
  });

  it('PAID and CANCELED are final', () => {
    expect(ORDER_STATUSES.filter(isFinalStatus)).toEqual(['PAID', 'CANCELED']);
  });

  it('converges whatever the delivery order', () => {
    const deliveries: OrderStatus[] = ['PAID', 'APPROVED', 'DISBURSING'];
    let status: OrderStatus = 'PENDING';
    for (const next of deliveries) status = transition(status, next).status;
    expect(status).toBe('PAID');
  });

  it('assertStatusIn throws invalid_transition (409) naming the states', () => {
    expect(() => assertStatusIn('APPROVED', ['APPROVED'], 'cancel')).not.toThrow();
    try {
      assertStatusIn('PAID', ['APPROVED'], 'cancel');
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(KitError);
      expect((error as KitError).status).toBe(409);
      expect((error as KitError).message).toContain('PAID');
    }
  });

  it('folds ASCII letters only (WIRE §6 R-SVC-13): a dotless ı is no i', () => {
    expect(knownOrderStatus('Paid')).toBe('PAID');
    // JavaScript's toUpperCase maps "ı" (U+0131) and "ſ" (U+017F) to I and S.
    expect(knownOrderStatus('pa\u0131d')).toBeUndefined();
    expect(knownOrderStatus('di\u017Fbursing')).toBeUndefined();
    expect(orderStatusSchema.safeParse('pa\u0131d').success).toBe(false);
  });

  it('accepts the lower-case prose spelling on the wire', () => {
    expect(orderStatusSchema.parse('approved')).toBe('APPROVED');
    expect(orderStatusSchema.safeParse('SHIPPED').success).toBe(false);
  });
});

describe('OPEN_ORDER_STATUSES', () => {
  it('is every status with a move left, derived from the state machine', async () => {
    const { OPEN_ORDER_STATUSES, isFinalStatus } = await import('../src/models/status.js');
    expect([...OPEN_ORDER_STATUSES]).toEqual(['PENDING', 'APPROVED', 'DISBURSING', 'CANCELING']);
    expect(OPEN_ORDER_STATUSES.some(isFinalStatus)).toBe(false);
  });
});

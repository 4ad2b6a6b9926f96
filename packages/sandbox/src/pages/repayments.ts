/**
 * The user's side of a BNPL loan in the sandbox: which of their orders they owe on, and repaying one
 * (in full, once). Repayments live in sandbox state next to the orders; the market is not notified
 * (a real provider collects repayments without involving the market).
 */
import type { Amount } from '@bnpl-kit/core';
import { ServiceFailure } from '../http.js';
import type { SandboxOrder, SandboxState } from '../state.js';
import { sumAmounts } from './money.js';

export type LoanState = 'pending' | 'owing' | 'repaid' | 'canceled';

const OWING_STATUSES = new Set(['APPROVED', 'DISBURSING', 'PAID']);

export function loanState(state: SandboxState, order: SandboxOrder): LoanState {
  if (state.repayments.has(order.id)) return 'repaid';
  if (OWING_STATUSES.has(order.status)) return 'owing';
  if (order.status === 'PENDING') return 'pending';
  return 'canceled';
}

/** The orders a user paid later at one market (an order learns its user when it is approved), newest first. */
export function userOrders(state: SandboxState, credifyId: string, marketId: string): SandboxOrder[] {
  return [...state.orders.values()]
    .filter((o) => o.credifyId === credifyId && o.organizationId === marketId)
    .sort((a, b) => b.createdAt - a.createdAt);
}

export function outstanding(state: SandboxState, orders: SandboxOrder[]): Amount {
  return sumAmounts(orders.filter((o) => loanState(state, o) === 'owing').map((o) => o.totalAmount));
}

export function repay(state: SandboxState, order: SandboxOrder, now: number): void {
  const current = loanState(state, order);
  if (current !== 'owing') {
    throw new ServiceFailure(409, 'CONFLICT', `Order ${order.id} has nothing to repay (${current})`);
  }
  state.repayments.set(order.id, {
    orderId: order.id,
    credifyId: order.credifyId!,
    organizationId: order.organizationId,
    amount: order.totalAmount,
    at: now,
  });
}

/**
 * Reconciliation's reads: the orders that are not final and have not moved for longer than a
 * threshold. Claiming a batch stamps `reconciled_at` in the same statement (FOR UPDATE SKIP LOCKED),
 * so runs overlapping in several processes take disjoint orders, and an order is asked about at
 * most once per threshold however long it stays open.
 */
import type { OrderStatus } from '@bnpl-kit/core';
import { OPEN_ORDER_STATUSES } from '@bnpl-kit/core/wire';
import type { Queryable } from '../executor/types.js';
import { type JobContext, nowParam } from './jobs/context.js';

/** The statuses with a move left (WIRE §3): core's state machine says which. */
export const OPEN_STATUSES: readonly OrderStatus[] = OPEN_ORDER_STATUSES;

export interface StaleOrder {
  id: string;
  status: OrderStatus;
  updatedAt: Date;
}

export async function claimStaleOrders(
  q: Queryable,
  ctx: JobContext,
  options: { staleForMs: number; limit: number },
): Promise<StaleOrder[]> {
  const { rows } = await q.query<{ id: string; status: OrderStatus; updated_at: Date }>(
    `WITH clock AS (SELECT coalesce($1::timestamptz, now()) AS t),
     picked AS (
       SELECT o.id FROM bnpl_orders o, clock
        WHERE o.status = ANY($4::text[])
          AND o.updated_at < clock.t - $2::double precision * interval '1 millisecond'
          AND (o.reconciled_at IS NULL
               OR o.reconciled_at < clock.t - $2::double precision * interval '1 millisecond')
        ORDER BY coalesce(o.reconciled_at, o.updated_at), o.id
        LIMIT $3::int
        FOR UPDATE OF o SKIP LOCKED
     )
     UPDATE bnpl_orders o SET reconciled_at = clock.t
       FROM picked, clock
      WHERE o.id = picked.id
     RETURNING o.id, o.status, o.updated_at`,
    [nowParam(ctx), options.staleForMs, options.limit, [...OPEN_STATUSES]],
  );
  return rows.map((row) => ({ id: row.id, status: row.status, updatedAt: row.updated_at }));
}

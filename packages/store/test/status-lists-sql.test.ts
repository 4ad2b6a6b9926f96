/**
 * The migrations spell out status lists in SQL (issue 31): the `bnpl_orders.status` CHECK and the
 * partial index of open orders that reconciliation scans. An applied migration is frozen (its
 * checksum is recorded), so its SQL cannot be derived from core's constants; this test ties them
 * instead. When core's `ORDER_STATUSES` or `OPEN_ORDER_STATUSES` change, it fails until a new
 * migration redefines the CHECK or recreates `bnpl_orders_open` with the new list.
 */
import { ORDER_STATUSES } from '@bnpl-kit/core';
import { isFinalStatus, OPEN_ORDER_STATUSES } from '@bnpl-kit/core/wire';
import { describe, expect, it } from 'vitest';
import { EMBEDDED_MIGRATIONS } from '../src/migrations/embedded.js';

/** The quoted names of the last `status IN (…)` list that follows `anchor` in any migration. */
function lastStatusList(anchor: RegExp): string[] | undefined {
  let found: string[] | undefined;
  for (const { sql } of EMBEDDED_MIGRATIONS) {
    const pattern = new RegExp(`${anchor.source}[\\s\\S]*?status IN \\(([^)]*)\\)`, 'g');
    for (const match of sql.matchAll(pattern))
      found = [...match[1]!.matchAll(/'([A-Z_]+)'/g)].map((quoted) => quoted[1]!);
  }
  return found;
}

describe('status lists in the migrations', () => {
  it('the orders CHECK allows exactly core’s ORDER_STATUSES', () => {
    const allowed = lastStatusList(/CREATE TABLE bnpl_orders \(/);
    expect(allowed?.slice().sort()).toEqual([...ORDER_STATUSES].sort());
  });

  it('the open-orders index covers exactly core’s OPEN_ORDER_STATUSES (those not final)', () => {
    const open = lastStatusList(/CREATE INDEX bnpl_orders_open /);
    expect(open?.slice().sort()).toEqual([...OPEN_ORDER_STATUSES].sort());
    expect(open?.every((status) => !isFinalStatus(status as (typeof ORDER_STATUSES)[number]))).toBe(true);
  });
});

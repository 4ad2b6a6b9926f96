/**
 * The service calls a check's own requests can have caused. The market's worker acts on earlier
 * checks' orders on its own schedule (a disbursement retried after a fault, a status reconciled), so
 * a call in a check's window that acts on an order counts against the check only when the order is
 * one the check acts on.
 */
import { ORDER_SERVICE_OPERATIONS } from '@bnpl-kit/core/wire';
import type { ServiceCallView } from '../sandbox/driver.js';

/** getOrder, revertOrder, disburseOrder: the operations whose path names one order's ID. */
const ORDER_OPERATIONS: ReadonlySet<string> = new Set(ORDER_SERVICE_OPERATIONS);

/** `calls` without those on orders other than `orderIds` (calls on no order are all kept). */
export function callsOfCheck(
  calls: readonly ServiceCallView[],
  orderIds: readonly string[],
): ServiceCallView[] {
  return calls.filter(
    (c) => !ORDER_OPERATIONS.has(c.operation) || pathSegments(c.path).some((s) => orderIds.includes(s)),
  );
}

/** A path's segments decoded (a segment that is no valid percent-encoding as it stands). */
function pathSegments(path: string): string[] {
  return path.split('/').map((segment) => {
    try {
      return decodeURIComponent(segment);
    } catch {
      return segment;
    }
  });
}

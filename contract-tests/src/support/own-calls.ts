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

/** Whether `operation` acts on one order (its path names the order's ID). */
export const isOrderOperation = (operation: string): boolean => ORDER_OPERATIONS.has(operation);

/** `calls` without those on orders other than `orderIds` (calls on no order are all kept). */
export function callsOfCheck(
  calls: readonly ServiceCallView[],
  orderIds: readonly string[],
): ServiceCallView[] {
  return calls.filter((c) => !isOrderOperation(c.operation) || orderIds.some((id) => isCallOnOrder(c, id)));
}

/**
 * Whether `call` acts on order `id`: an order operation whose path holds the ID as a whole segment,
 * decoded (an order `o-1` is not `o-12`'s prefix, and `a/b` is matched as the market encodes it).
 */
export function isCallOnOrder(call: ServiceCallView, id: string | number): boolean {
  return isOrderOperation(call.operation) && pathSegments(call.path).includes(String(id));
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

/**
 * The one rule for moving a stored order to what the service reports (WIRE §3): read it locked, take
 * the forward move if there is one, write it with its history row. The status endpoint, cancel and
 * disburse answers, the disbursement job and reconciliation all go through here; webhooks apply the
 * same `transition` (as one statement on stores that can).
 */
import { knownOrderStatus, type OrderStatus, type TransitionResult, transition } from '../models/status.js';
import type { MarketTransaction, StoredOrder } from './store.js';

export interface FollowedServiceStatus {
  /** The stored order afterwards (locked until the transaction ends); undefined when not stored. */
  order: StoredOrder | undefined;
  /** The service's status read tolerantly (WIRE §6): undefined for a value outside the six. */
  serviceStatus: OrderStatus | undefined;
  /** The move considered; undefined when there was nothing to compare. */
  transition: TransitionResult | undefined;
}

/** Inside `tx`: moves order `orderId` forward to `serviceStatus` when that is a forward move. */
export async function followServiceStatus(
  tx: MarketTransaction,
  orderId: string,
  reportedStatus: string,
  source: string,
): Promise<FollowedServiceStatus> {
  const local = await tx.getOrderForUpdate(orderId);
  const serviceStatus = knownOrderStatus(reportedStatus);
  if (!local || serviceStatus === undefined) return { order: local, serviceStatus, transition: undefined };
  const result = transition(local.status, serviceStatus);
  if (!result.changed) return { order: local, serviceStatus, transition: result };
  await tx.setOrderStatus({ orderId, from: local.status, to: result.status, source });
  const order = (await tx.getOrderForUpdate(orderId)) ?? { ...local, status: result.status };
  return { order, serviceStatus, transition: result };
}

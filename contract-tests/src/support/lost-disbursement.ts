import type { RouteFaultSpec, WebhookFaultSpec } from '../sandbox/driver.js';

/**
 * The next disbursement pays at the service but its answer is lost (a 503 after the effect), and
 * so are the status webhooks that would tell the market: the market can only repeat the call, the
 * retry R-SVC-06 and R-EP-11 speak of. Injected for one step with `withFaults`, which clears them.
 */
export function lostDisbursementAnswer(orderId: string): (RouteFaultSpec | WebhookFaultSpec)[] {
  return [
    { operation: 'disburseOrder', action: 'error', status: 503, after_effect: true, order_id: orderId },
    { action: 'drop', times: 5, event_type: 'BNPL_ORDER_STATUS_UPDATED' },
  ];
}

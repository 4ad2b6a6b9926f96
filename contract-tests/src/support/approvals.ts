/**
 * Orders the provider approved at the service: announced (the service's APPROVED webhook delivered
 * and answered) or not (its webhook dropped, so a check delivers that status itself).
 */
import { ensure } from '../expect.js';
import type { DeliveryView } from '../sandbox/driver.js';
import { acknowledged } from '../sandbox/views.js';
import type { CheckContext } from '../types.js';
import { type CreatedOrder, createOrder } from './orders.js';
import { deliver } from './webhooks.js';

/**
 * A fresh order the provider approved, and the service's APPROVED delivery once the market answered
 * it, the event processed: checks build on it ("a repeat is a duplicate", "it survives a restart").
 * The service gives up on an attempt after 10 s and retries 5 s later, so a market on a loaded
 * machine may have answered none of its attempts yet (late, or 503 while busy); certify then
 * delivers the same event itself, and the market must acknowledge it. Whether the service's own
 * attempt was acknowledged is `approvedOrder`'s question.
 */
export async function approvedAtService(
  ctx: CheckContext,
): Promise<{ order: CreatedOrder; delivery: DeliveryView }> {
  const order = await createOrder(ctx);
  await ctx.sandbox.approve(order.id);
  const delivery = await ctx.sandbox.awaitStatusDelivery(order.id, 'APPROVED');
  if (!acknowledged(delivery)) {
    const attempts = delivery.attempts.map((a) => a.responseStatus ?? a.outcome ?? 'no answer').join(', ');
    await deliver(
      ctx,
      delivery.body,
      `the APPROVED event ${delivery.eventId}, delivered again by certify because the service's attempts were not acknowledged: ${attempts}`,
      { eventId: delivery.eventId },
    );
  }
  return { order, delivery };
}

/** The ID of a fresh order the provider approved, its APPROVED webhook acknowledged by the market. */
export async function approvedOrder(ctx: CheckContext): Promise<string> {
  const { order, delivery } = await approvedAtService(ctx);
  const status = delivery.attempts.at(-1)?.responseStatus ?? 0;
  ensure(status >= 200 && status < 300, {
    expected: "the service's signed APPROVED webhook to be acknowledged with 2xx",
    actual: `HTTP ${status} ${delivery.attempts.at(-1)?.responseBody ?? ''}`,
    spec: 'WIRE §4',
  });
  return order.id;
}

/**
 * The provider approves `id` at the service, but the service's own APPROVED webhook is dropped, so
 * a check can deliver that status itself (as a vector, pretty-printed, through a proxy) while the
 * service and the webhooks still agree (certify never delivers a status the service does not have).
 */
export async function approveUnannounced(ctx: CheckContext, id: string): Promise<void> {
  await ctx.sandbox.injectFault({ action: 'drop', times: 1, event_type: 'BNPL_ORDER_STATUS_UPDATED' });
  try {
    await ctx.sandbox.approve(id);
  } finally {
    await ctx.sandbox.clearFaults();
  }
}

/** A fresh order approved by `approveUnannounced`: APPROVED at the service, PENDING at the market. */
export async function approvedUnannounced(ctx: CheckContext): Promise<CreatedOrder> {
  const order = await createOrder(ctx);
  await approveUnannounced(ctx, order.id);
  return order;
}

/**
 * The market has processed the service's delivery of `status` for `id`: the service's own attempt,
 * or certify's delivery of the same event when no attempt was acknowledged (a slow market).
 */
export async function statusReached(ctx: CheckContext, id: string, status: string): Promise<void> {
  const delivery = await ctx.sandbox.awaitStatusDelivery(id, status);
  if (!acknowledged(delivery))
    await deliver(ctx, delivery.body, `the service's ${status} event ${delivery.eventId}, delivered again`, {
      eventId: delivery.eventId,
    });
}

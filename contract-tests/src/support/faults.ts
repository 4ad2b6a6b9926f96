/** A check's faults at the service: injected for one step, and every fault cleared after it. */
import type { RouteFaultSpec, WebhookFaultSpec } from '../sandbox/driver.js';
import type { CheckContext } from '../types.js';

/**
 * Runs `act` with `faults` injected at the sandbox, then clears every fault left, whether `act`
 * succeeded or not: a fault the market never met (it made fewer calls than `times`) must not reach
 * the next check, which shares the sandbox.
 */
export async function withFaults<T>(
  ctx: Pick<CheckContext, 'sandbox'>,
  faults: readonly (RouteFaultSpec | WebhookFaultSpec)[],
  act: () => Promise<T>,
): Promise<T> {
  try {
    for (const fault of faults) await ctx.sandbox.injectFault(fault);
    return await act();
  } finally {
    await ctx.sandbox.clearFaults();
  }
}

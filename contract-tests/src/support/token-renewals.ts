/**
 * Which token requests a check may lay at another client's door: the market's worker (its own token
 * cache) meets the service's 401s too, and renews on its own, sometimes just as a check's window opens.
 */
import type { ServiceCallView } from '../sandbox/driver.js';
import type { CheckContext } from '../types.js';

/**
 * How many calls before a check's window are searched for another client's refusal whose renewal
 * falls inside the window: the market's worker can meet a 401 just before the window opens.
 */
const LOOKBACK_CALLS = 50;

/** The service calls after call `since`, and a few before it: see `refusedElsewhere`. */
export async function callsAround(ctx: CheckContext, since: number) {
  const calls = await ctx.sandbox.serviceCalls(Math.max(0, since - LOOKBACK_CALLS));
  return { calls, window: calls.filter((c) => c.id > since) };
}

/**
 * Refusals of the market's other clients (a worker with its own token, another process) that may
 * each bring a renewal inside the window after call `since`: the service's own 401s (not injected
 * faults) to calls that are not the check's, in the window, and those just before it that no token
 * request followed before the window opened (a token request answers every 401 before it: calls that
 * met one together renew once, R-SVC-03).
 */
export function refusedElsewhere(
  calls: readonly ServiceCallView[],
  since: number,
  ours: (call: ServiceCallView) => boolean,
): number {
  let inWindow = 0;
  let unanswered = 0;
  for (const call of [...calls].sort((a, b) => a.id - b.id)) {
    if (call.status === 401 && call.fault === undefined && call.operation !== 'token' && !ours(call)) {
      if (call.id > since) inWindow++;
      else unanswered++;
    } else if (call.operation === 'token' && call.id <= since) {
      unanswered = 0;
    }
  }
  return inWindow + unanswered;
}

/**
 * Waiting for the wall clock, for the one kind of case that needs it: a rule about what a market
 * must keep the same when time has moved on (R-EP-11: an invoice dated "now" at whole seconds is
 * only caught regenerated once a second boundary lies between two attempts). No fixed sleep: the
 * wait ends as soon as the clock has advanced by `ms` since `since`, and is nothing when it has.
 */
export function untilElapsed(since: number, ms: number): Promise<void> {
  const left = since + ms - Date.now();
  return left <= 0 ? Promise.resolve() : new Promise((resolve) => setTimeout(resolve, left));
}

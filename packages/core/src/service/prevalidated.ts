/**
 * Request bodies the kit has already validated with a schema at least as strict as the service
 * route's own (the market's order create request is: same fields, same limits, plus the unit
 * price currency). The service client skips its pre-send check for these: checking the same
 * object twice per order is pure cost. Module-private to core: callers outside cannot add to it.
 */
const checked = new WeakSet<object>();

export function markPrevalidated<T extends object>(body: T): T {
  checked.add(body);
  return body;
}

export function isPrevalidated(body: unknown): boolean {
  return typeof body === 'object' && body !== null && checked.has(body);
}

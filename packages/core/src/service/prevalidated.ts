/**
 * Request bodies the kit has already validated with a schema at least as strict as the service
 * route's own (the market's order create request is: same fields, same limits, plus the unit
 * price currency). The service client skips its pre-send check for these: checking the same
 * object twice per order is pure cost. Module-private to core: callers outside cannot add to it.
 *
 * The caller may hand over the body's wire JSON too, when it encoded the body already (the order
 * route does, for its fingerprint): the client sends that instead of encoding the body again. It
 * must be what the route's request codec makes of the body (test/service-prevalidated.test.ts).
 */
const checked = new WeakMap<object, Record<string, unknown> | undefined>();

export function markPrevalidated<T extends object>(body: T, wire?: Record<string, unknown>): T {
  checked.set(body, wire);
  return body;
}

export function isPrevalidated(body: unknown): boolean {
  return typeof body === 'object' && body !== null && checked.has(body);
}

/** The wire JSON handed over with a prevalidated body, if any. */
export function prevalidatedWire(body: unknown): Record<string, unknown> | undefined {
  return typeof body === 'object' && body !== null ? checked.get(body) : undefined;
}

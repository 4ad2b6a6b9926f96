/**
 * The service answers an order's creation with the order, order lines included, exactly as it
 * received them. When the request was checked before it was sent (prevalidated.ts) and the
 * answer's lines are those very lines, checking them again with the same line schema cannot fail:
 * the answer's other members are checked as always, and the lines decode to the ones sent. Lines
 * that differ in any way are checked in full, as any answer is.
 */
import type { RouteDefinition } from './routes.js';

/** The member of the answer's `data` that repeats the request's, by wire and model name. */
export interface Echo {
  readonly wire: string;
  readonly model: string;
}

/** Per operation, what its answer repeats of its request. */
export const ANSWER_ECHOES: Readonly<Record<string, Echo>> = {
  createOrder: { wire: 'order_lines', model: 'orderLines' },
};

/** What was sent, checked: its wire JSON and the model it was encoded from. */
export interface CheckedRequest {
  readonly wire: Record<string, unknown>;
  readonly model: Record<string, unknown>;
}

/** Equal as JSON values (what `JSON.parse` can give: no undefined, functions or cycles). */
export function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!sameJson(a[i], b[i])) return false;
    return true;
  }
  if (Array.isArray(b)) return false;
  const x = a as Record<string, unknown>;
  const y = b as Record<string, unknown>;
  let count = 0;
  for (const key in x) {
    if (!Object.hasOwn(y, key) || !sameJson(x[key], y[key])) return false;
    count++;
  }
  return Object.keys(y).length === count;
}

/**
 * The answer's `data` through the route's response schema, the echoed member skipped when it is
 * what was sent (then the model's own value stands in for its decoding).
 */
export function parseAnswerData(
  operation: string,
  route: RouteDefinition,
  data: unknown,
  sent: CheckedRequest | undefined,
): ReturnType<RouteDefinition['response']['schema']['safeParse']> {
  const echo = ANSWER_ECHOES[operation];
  if (
    echo === undefined ||
    sent === undefined ||
    typeof data !== 'object' ||
    data === null ||
    !sameJson((data as Record<string, unknown>)[echo.wire], sent.wire[echo.wire])
  ) {
    return route.response.schema.safeParse(data);
  }
  const rest = route.response.schema.safeParse({ ...data, [echo.wire]: [] });
  if (rest.success) (rest.data as Record<string, unknown>)[echo.model] = sent.model[echo.model];
  return rest;
}

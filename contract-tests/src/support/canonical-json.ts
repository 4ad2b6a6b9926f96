/** JSON as the service compares it: values, not member order (object keys sorted, arrays kept). */
export function canonicalJson(value: unknown): string {
  const sort = (v: unknown): unknown =>
    Array.isArray(v)
      ? v.map(sort)
      : typeof v === 'object' && v !== null
        ? Object.fromEntries(
            Object.entries(v)
              .sort(([a], [b]) => (a < b ? -1 : 1))
              .map(([k, inner]) => [k, sort(inner)]),
          )
        : v;
  return JSON.stringify(sort(value));
}

/**
 * One value per server process. Next bundles a module once per route (and once more for
 * instrumentation.ts), so module variables are not shared: the market's store, the drain and the
 * request count live on `globalThis` under a registered symbol instead.
 */
export function processWide<T>(name: string, create: () => T): T {
  const key = Symbol.for(`bnpl-kit.nextjs-example.${name}`);
  const slots = globalThis as Record<symbol, unknown>;
  if (!(key in slots)) slots[key] = create();
  return slots[key] as T;
}

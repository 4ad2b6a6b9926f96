/**
 * V8's own view of objects the hot paths make per request, for tests that hold them to one
 * hidden class. An object that gets a getter or setter made for it (an object literal's `get x()`,
 * or `Object.defineProperty` with a fresh function) either becomes a dictionary-mode object or
 * gets a hidden class of its own. The latter is allocated where only a mark-compact frees it and
 * keeps everything the getter reaches (a whole request) alive past the young-generation
 * collections that would have freed it (bench/servers/child.ts, BENCH_HEAP_SAMPLE=promoted; docs/capacity.md).
 *
 * Node-only (V8 intrinsics, enabled for the functions compiled below).
 */
import { setFlagsFromString } from 'node:v8';

setFlagsFromString('--allow-natives-syntax');
const haveSameMap = new Function('a', 'b', 'return %HaveSameMap(a, b)') as (a: object, b: object) => boolean;
const hasFastProperties = new Function('o', 'return %HasFastProperties(o)') as (o: object) => boolean;

/**
 * Why `objects` (made the same way, at least two) do not share one hidden class with fast
 * properties, or undefined when they do.
 */
export function shapeProblem(objects: readonly object[]): string | undefined {
  if (objects.length < 2) throw new Error('shapeProblem needs at least two objects to compare');
  const slow = objects.findIndex((o) => !hasFastProperties(o));
  if (slow >= 0) return `object ${slow} is in dictionary mode`;
  const apart = objects.findIndex((o) => !haveSameMap(objects[0]!, o));
  if (apart >= 0) return `object ${apart} has a hidden class of its own`;
  return undefined;
}

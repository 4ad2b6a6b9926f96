/**
 * Reads a V8 `.cpuprofile` (from `--cpu-prof` or the inspector) into its top self-time functions,
 * as shares of all samples: shares compare across runs on a loaded machine, milliseconds do not.
 */
export interface CpuProfile {
  nodes: { id: number; callFrame: { functionName: string; url: string; lineNumber: number } }[];
  samples: number[];
}

export function topSelfTime(profile: CpuProfile, limit: number): string[] {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const counts = new Map<string, number>();
  for (const id of profile.samples) {
    const frame = byId.get(id)?.callFrame;
    if (frame === undefined) continue;
    const file = frame.url.replace(/^.*\/(node_modules\/(?:\.pnpm\/[^/]+\/node_modules\/)?)?/, '');
    const key = `${frame.functionName || '(anonymous)'} ${file}:${frame.lineNumber + 1}`;
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  const total = profile.samples.length;
  return [...counts.entries()]
    .sort((a, b) => b[1] - a[1])
    .slice(0, limit)
    .map(([key, count]) => `${((100 * count) / total).toFixed(1).padStart(5)} %  ${key}`);
}

/** A sampling heap profile (`HeapProfiler.stopSampling`): a call tree with bytes allocated at each node. */
export interface SampledHeap {
  head: SampledHeapNode;
  samples: { size: number; nodeId: number }[];
}
interface SampledHeapNode {
  id: number;
  selfSize: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children: SampledHeapNode[];
}

/** The functions that allocated most, in bytes per operation (`per` operations measured). */
export function topAllocations(heap: SampledHeap, per: number, limit: number): string[] {
  const bytes = new Map<string, number>();
  const visit = (node: SampledHeapNode) => {
    const frame = node.callFrame;
    const file = frame.url.replace(/^.*\//, '');
    const key = `${frame.functionName || '(anonymous)'} ${file}:${frame.lineNumber + 1}`;
    bytes.set(key, (bytes.get(key) ?? 0) + node.selfSize);
    for (const child of node.children) visit(child);
  };
  visit(heap.head);
  return [...bytes.entries()]
    .sort((a, b) => b[1] - a[1])
    .slice(0, limit)
    .map(([key, size]) => `${(size / per / 1024).toFixed(2).padStart(7)} KB  ${key}`);
}

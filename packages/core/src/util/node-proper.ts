/**
 * Node's own modules for core's main entry, which Workers, Deno and Bun load too: taken through
 * `process.getBuiltinModule` at run time, never imported, so no bundler for another runtime sees a
 * `node:` import. Used where Node's module is much cheaper than the Web API (the service call over
 * `node:http`, Ed25519 through `node:crypto`).
 */

export interface NodeProcess {
  release?: { name?: string };
  versions?: Record<string, string | undefined>;
  getBuiltinModule?: (id: string) => unknown;
}

/**
 * Node proper, with `process.getBuiltinModule` (20.16+): not Bun or Deno (which set
 * `process.release.name` to "node" too) nor a Workers `process` shim. Their `node:` modules are
 * implementations of their own, and they keep the Web APIs.
 */
export function isNodeProper(proc: NodeProcess | undefined, userAgent: string | undefined): boolean {
  if (proc?.release?.name !== 'node' || typeof proc.getBuiltinModule !== 'function') return false;
  if (proc.versions?.bun !== undefined || proc.versions?.deno !== undefined) return false;
  return userAgent !== 'Cloudflare-Workers';
}

/** `process.getBuiltinModule` on Node proper, else undefined. */
export function nodeBuiltins(): ((id: string) => unknown) | undefined {
  const proc = (globalThis as { process?: NodeProcess }).process;
  const userAgent = (globalThis as { navigator?: { userAgent?: string } }).navigator?.userAgent;
  if (!isNodeProper(proc, userAgent)) return undefined;
  return proc!.getBuiltinModule!.bind(proc);
}

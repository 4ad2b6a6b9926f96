/**
 * Whether the store refuses itself inside its own transaction (`store.transaction` nested, or
 * `store.findOrderById` where `tx.findOrderById` was meant). The guard needs to know, at each
 * call, whether the caller runs inside a transaction's callback: an `AsyncLocalStorage`. On Node
 * 24 (and 22 with `--experimental-async-context-frame`) that is cheap. Before it, the first
 * `AsyncLocalStorage.run` turns on promise hooks for the whole process, for good: every promise
 * of every request then calls into JavaScript when it is made and settled (bench/profile-webhook.ts
 * measured about a tenth of a hooked webhook's allocation, and its CPU share in the same order).
 *
 * So by default the guard runs where the mistake it catches is made and found (outside
 * `NODE_ENV=production`), wherever it is cheap, and always on PGlite, where the mistake does not
 * fail but waits forever on the one connection the transaction holds. A production PostgreSQL
 * store on an older Node skips it: there a misuse runs outside the transaction instead of failing.
 * `openStore({ guardNestedUse })` decides explicitly.
 */
import type { Dialect } from './executor/types.js';

export interface GuardRuntime {
  /** `process.versions.node`. */
  nodeVersion: string | undefined;
  /** `process.execArgv` and `NODE_OPTIONS`, where the async context frame flag would be. */
  flags: readonly string[];
  nodeEnv: string | undefined;
}

/** Read defensively: workerd's nodejs_compat `process` has no `versions` and no `execArgv`. */
export function currentRuntime(): GuardRuntime {
  return {
    nodeVersion: process.versions?.node,
    flags: [...(process.execArgv ?? []), ...(process.env?.NODE_OPTIONS ?? '').split(/\s+/)],
    nodeEnv: process.env?.NODE_ENV,
  };
}

/**
 * Whether `AsyncLocalStorage` costs nothing per promise here (Node's `AsyncContextFrame`). A
 * runtime that is not Node (workerd has no `process.versions.node`) has no promise hooks to turn
 * on: its `AsyncLocalStorage` is its own, so the guard stays.
 */
export function cheapAsyncContext(runtime: GuardRuntime): boolean {
  if (runtime.nodeVersion === undefined) return true;
  const major = Number(runtime.nodeVersion.split('.')[0]);
  if (!Number.isFinite(major)) return false;
  if (major >= 24) return !runtime.flags.includes('--no-async-context-frame');
  return major >= 22 && runtime.flags.includes('--experimental-async-context-frame');
}

export function guardNestedUseByDefault(dialect: Dialect, runtime: GuardRuntime = currentRuntime()): boolean {
  return dialect === 'pglite' || runtime.nodeEnv !== 'production' || cheapAsyncContext(runtime);
}

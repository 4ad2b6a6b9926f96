/**
 * PGlite's WebAssembly compiled by V8's baseline compiler (Liftoff) alone, without the optimising
 * tier that by default recompiles its hot functions in background threads.
 *
 * Why: a development database runs short statements, and for those the recompilation costs more
 * CPU than the faster code gives back. Measured on one 2-core machine, one process each:
 * - PGlite opened from the template, then 1,500 transactions and 4,500 statements: 7.0–7.8 s of CPU
 *   by default, 4.4–5.2 s baseline only; RSS 520–560 MB against 440 MB.
 * - A README server (`node server.mjs`, PGlite) through a strict basic certify run: 12.7–12.8 s of
 *   market CPU by default, 9.0–9.5 s baseline only; the market's peak RSS 382 MB against 272 MB.
 * - The store's own tests, every file a worker compiling PGlite anew: orders 10.9 → 7.8 and
 *   maintenance 14.8 → 11.7 CPU-seconds (when the test workers still ran with `--liftoff-only`).
 *
 * How: V8 decides a module's tiers when it compiles the module, so `--liftoff-only` is set only
 * while PGlite compiles its own (inside `PGlite.create`) and unset afterwards; WebAssembly the
 * application compiles at any other time keeps V8's default tiers. (Another module compiled during
 * those milliseconds gets baseline code: correct, and as fast as here.)
 *
 * Left alone: a process started with a WebAssembly tiering flag of its own (`node --wasm-tier-up`,
 * `--liftoff-only`, …) keeps what it chose; runtimes other than Node (Bun, Deno) are not touched.
 */

export interface BaselineCompilerScope {
  /** Runs `create` (which compiles PGlite's module) with V8's baseline WebAssembly compiler only. */
  run<T>(create: () => Promise<T>): Promise<T>;
}

export interface BaselineCompilerOptions {
  /** V8's `setFlagsFromString`, or undefined where there is none to call. */
  setFlags: () => Promise<((flags: string) => void) | undefined>;
  /** The process's own command-line flags (Node's `process.execArgv`). */
  execArgv: readonly string[];
}

/** Flags by which a process chooses its WebAssembly tiers itself. */
const TIERING_FLAG = /^--(no-)?(liftoff|liftoff-only|wasm-tier-up|wasm-dynamic-tiering)(=|$)/;

export function baselineCompilerScope(options: BaselineCompilerOptions): BaselineCompilerScope {
  // V8 reads `_` and `-` in a flag's name alike (`--liftoff_only` is `--liftoff-only`).
  const chosenByProcess = options.execArgv.some((flag) => TIERING_FLAG.test(flag.replaceAll('_', '-')));
  // Opens overlap (tests, a server and its template build): the flag is set by the first and
  // unset by the last, so no open's compilation loses it half-way.
  let open = 0;
  let setter: Promise<((flags: string) => void) | undefined> | undefined;

  return {
    async run(create) {
      if (chosenByProcess) return create();
      setter ??= options.setFlags();
      const set = await setter;
      if (set === undefined) return create();
      if (open++ === 0) set('--liftoff-only');
      try {
        return await create();
      } finally {
        if (--open === 0) set('--no-liftoff-only');
      }
    },
  };
}

/**
 * Node's V8, loaded on first use (`node:v8` is not everywhere the store's modules may be bundled).
 * Core's `isNodeProper` says the same for core's own use, but it is in no entry the store may import
 * (`core/unstable-internals` is the adapters', tools/repo-checks); this one only has to tell Node
 * from Bun and Deno, since PGlite does not run on Workers.
 */
export async function nodeV8Flags(): Promise<((flags: string) => void) | undefined> {
  const versions = (globalThis as { process?: { versions?: Record<string, string | undefined> } }).process
    ?.versions;
  if (versions?.node === undefined || versions.bun !== undefined || 'Deno' in globalThis) return undefined;
  try {
    const { setFlagsFromString } = await import('node:v8');
    return setFlagsFromString;
  } catch {
    return undefined;
  }
}

export const pgliteCompilerScope: BaselineCompilerScope = baselineCompilerScope({
  setFlags: nodeV8Flags,
  execArgv: (globalThis as { process?: { execArgv?: string[] } }).process?.execArgv ?? [],
});

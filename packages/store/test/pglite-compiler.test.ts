/**
 * PGlite's WebAssembly is compiled by V8's baseline compiler only, the flag held just while PGlite
 * compiles (src/executor/pglite-compiler.ts). These tests drive the scope with a recording setter
 * in place of V8's; every PGlite the other tests open goes through the real one.
 */
import { setFlagsFromString } from 'node:v8';
import { describe, expect, it } from 'vitest';
import { baselineCompilerScope, nodeV8Flags } from '../src/executor/pglite-compiler.js';

function recorded(execArgv: readonly string[] = []) {
  const calls: string[] = [];
  const scope = baselineCompilerScope({
    setFlags: async () => (flags) => calls.push(flags),
    execArgv,
  });
  return { calls, scope };
}

/** A `create` that stays pending until the test lets it go, recording the flags it saw. */
function pendingCreate(calls: string[]) {
  let finish!: () => void;
  let fail!: (err: Error) => void;
  const seen: string[][] = [];
  const create = () =>
    new Promise<string>((resolve, reject) => {
      seen.push([...calls]);
      finish = () => resolve('db');
      fail = reject;
    });
  return { create, seen, finish: () => finish(), fail: (err: Error) => fail(err) };
}

describe('the baseline compiler scope around PGlite.create', () => {
  it('sets --liftoff-only before PGlite compiles and unsets it once PGlite is up', async () => {
    const { calls, scope } = recorded();
    const open = pendingCreate(calls);
    const db = scope.run(open.create);
    await Promise.resolve();
    await Promise.resolve();
    expect(open.seen).toEqual([['--liftoff-only']]);
    open.finish();
    await expect(db).resolves.toBe('db');
    expect(calls).toEqual(['--liftoff-only', '--no-liftoff-only']);
  });

  it('keeps the flag set until the last of overlapping opens is up', async () => {
    const { calls, scope } = recorded();
    const first = pendingCreate(calls);
    const second = pendingCreate(calls);
    const a = scope.run(first.create);
    const b = scope.run(second.create);
    await new Promise((resolve) => setImmediate(resolve));
    first.finish();
    await a;
    expect(calls).toEqual(['--liftoff-only']);
    second.finish();
    await b;
    expect(calls).toEqual(['--liftoff-only', '--no-liftoff-only']);
  });

  it('unsets the flag when PGlite fails to start', async () => {
    const { calls, scope } = recorded();
    const open = pendingCreate(calls);
    const db = scope.run(open.create);
    await new Promise((resolve) => setImmediate(resolve));
    open.fail(new Error('refused'));
    await expect(db).rejects.toThrow('refused');
    expect(calls).toEqual(['--liftoff-only', '--no-liftoff-only']);
  });

  it.each([
    ['--liftoff-only'],
    ['--liftoff_only'],
    ['--wasm-tier-up'],
    ['--no-wasm_dynamic_tiering'],
    ['--liftoff'],
  ])('leaves V8 alone in a process started with %s (its own choice of tiers)', async (flag) => {
    const { calls, scope } = recorded(['--enable-source-maps', flag]);
    await expect(scope.run(async () => 'db')).resolves.toBe('db');
    expect(calls).toEqual([]);
  });

  it('runs PGlite as it is where there is no V8 flag setter (Bun, Deno)', async () => {
    const scope = baselineCompilerScope({ setFlags: async () => undefined, execArgv: [] });
    await expect(scope.run(async () => 'db')).resolves.toBe('db');
  });

  it("takes V8's own flag setter on Node proper, and none where Node is only imitated", async () => {
    await expect(nodeV8Flags()).resolves.toBe(setFlagsFromString);
    const { process: realProcess } = globalThis;
    // Bun sets process.versions.bun beside a Node-like process; its V8 flags are not Node's.
    const bunLike = {
      release: { name: 'node' },
      versions: { ...realProcess.versions, bun: '1.2.0' },
      getBuiltinModule: realProcess.getBuiltinModule.bind(realProcess),
    };
    Object.defineProperty(globalThis, 'process', { value: bunLike, configurable: true, writable: true });
    try {
      await expect(nodeV8Flags()).resolves.toBeUndefined();
    } finally {
      Object.defineProperty(globalThis, 'process', {
        value: realProcess,
        configurable: true,
        writable: true,
      });
    }
  });
});

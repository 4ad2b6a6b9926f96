import { describe, expect, it, vi } from 'vitest';
import {
  cheapAsyncContext,
  currentRuntime,
  type GuardRuntime,
  guardNestedUseByDefault,
} from '../src/nested-use-guard.js';
import { openStore } from '../src/open-store.js';

const runtime = (
  nodeVersion: string | undefined,
  nodeEnv: string | undefined,
  flags: string[] = [],
): GuardRuntime => ({
  nodeVersion,
  nodeEnv,
  flags,
});

describe('the nested-use guard by default', () => {
  it('is on outside production, on PGlite, and wherever async context is cheap', () => {
    expect(guardNestedUseByDefault('postgres', runtime('20.20.2', undefined))).toBe(true);
    expect(guardNestedUseByDefault('postgres', runtime('20.20.2', 'test'))).toBe(true);
    expect(guardNestedUseByDefault('pglite', runtime('20.20.2', 'production'))).toBe(true);
    expect(guardNestedUseByDefault('postgres', runtime('24.1.0', 'production'))).toBe(true);
    expect(
      guardNestedUseByDefault(
        'postgres',
        runtime('22.12.0', 'production', ['--experimental-async-context-frame']),
      ),
    ).toBe(true);
  });

  it('is off for PostgreSQL in production where every promise would pay for it', () => {
    expect(guardNestedUseByDefault('postgres', runtime('20.20.2', 'production'))).toBe(false);
    expect(guardNestedUseByDefault('postgres', runtime('22.12.0', 'production'))).toBe(false);
    expect(
      guardNestedUseByDefault('postgres', runtime('24.1.0', 'production', ['--no-async-context-frame'])),
    ).toBe(false);
  });

  it('knows which runtimes have a cheap async context', () => {
    expect(cheapAsyncContext(runtime('24.0.0', undefined))).toBe(true);
    expect(cheapAsyncContext(runtime('22.7.0', undefined))).toBe(false);
    expect(cheapAsyncContext(runtime('not a version', undefined))).toBe(false);
  });

  it("reads a runtime that is not Node (workerd's process has no versions, no execArgv)", () => {
    vi.stubGlobal('process', { env: { NODE_ENV: 'production' } });
    let read: GuardRuntime;
    try {
      read = currentRuntime();
    } finally {
      vi.unstubAllGlobals();
    }
    expect(read).toEqual({ nodeVersion: undefined, flags: [''], nodeEnv: 'production' });
    // No Node promise hooks to turn on there: the guard stays on PostgreSQL in production.
    expect(guardNestedUseByDefault('postgres', read)).toBe(true);
  });
});

describe('openStore({ guardNestedUse })', () => {
  it('false: the store is not refused inside its own transaction', async () => {
    const store = await openStore({ memory: true, guardNestedUse: false });
    try {
      // PGlite has one connection: the store call waits for this transaction to end, so it is
      // handed out unawaited. Guarded, it would reject at once instead of running.
      const { read } = await store.transaction(async () => ({ read: store.findOrderById('x') }));
      await expect(read).resolves.toBeUndefined();
    } finally {
      await store.close();
    }
  });

  it('true: refused even where the default would not guard', async () => {
    const store = await openStore({ memory: true, guardNestedUse: true });
    try {
      await expect(store.transaction(() => store.findOrderById('x'))).rejects.toThrow(/use the `tx`/);
    } finally {
      await store.close();
    }
  });
});

/**
 * The calls a test makes the sandbox hold get a short timeout (src/testing/held-service-calls.ts):
 * the register counts each held call once, forgets them when the faults are cleared, and the
 * wrapped sandbox registers exactly its `timeout` route faults.
 */
import { describe, expect, it, vi } from 'vitest';
import type { ContractSandbox } from '../src/index.js';
import { heldServiceCalls, holdingSandbox } from '../src/testing.js';

function fakeSandbox() {
  return {
    serviceUrl: 'https://service.test',
    organizationId: 'org',
    injectFault: vi.fn(async () => {}),
    clearFaults: vi.fn(async () => {}),
  } as unknown as ContractSandbox & {
    injectFault: ReturnType<typeof vi.fn>;
    clearFaults: ReturnType<typeof vi.fn>;
  };
}

describe('heldServiceCalls', () => {
  it('counts each held call of an operation once, and only that operation', () => {
    const held = heldServiceCalls();
    held.hold('createOrder', 2);
    expect(held.takeHeld('getOrder')).toBe(false);
    expect([
      held.takeHeld('createOrder'),
      held.takeHeld('createOrder'),
      held.takeHeld('createOrder'),
    ]).toEqual([true, true, false]);
  });

  it('holds nothing once released', () => {
    const held = heldServiceCalls(250);
    held.hold('createOrder', 1);
    held.release();
    expect(held.takeHeld('createOrder')).toBe(false);
    expect(held.heldTimeoutMs).toBe(250);
  });
});

describe('holdingSandbox', () => {
  it("registers the sandbox's timeout faults after injecting them, and nothing else", async () => {
    const inner = fakeSandbox();
    const held = heldServiceCalls();
    const sandbox = holdingSandbox(inner, held);
    await sandbox.injectFault({ operation: 'getOrder', action: 'error', status: 500 });
    await sandbox.injectFault({ action: 'drop' });
    await sandbox.injectFault({ operation: 'createOrder', action: 'timeout', times: 2 });
    expect(inner.injectFault).toHaveBeenCalledTimes(3);
    expect(held.takeHeld('getOrder')).toBe(false);
    expect([
      held.takeHeld('createOrder'),
      held.takeHeld('createOrder'),
      held.takeHeld('createOrder'),
    ]).toEqual([true, true, false]);
    expect(sandbox.serviceUrl).toBe('https://service.test');
  });

  it('forgets the held calls when the faults are cleared', async () => {
    const inner = fakeSandbox();
    const held = heldServiceCalls();
    const sandbox = holdingSandbox(inner, held);
    await sandbox.injectFault({ operation: 'createOrder', action: 'timeout' });
    await sandbox.clearFaults();
    expect(inner.clearFaults).toHaveBeenCalledOnce();
    expect(held.takeHeld('createOrder')).toBe(false);
  });

  it('registers nothing when the sandbox refused the fault', async () => {
    const inner = fakeSandbox();
    inner.injectFault.mockRejectedValueOnce(new Error('refused'));
    const held = heldServiceCalls();
    await expect(
      holdingSandbox(inner, held).injectFault({ operation: 'createOrder', action: 'timeout' }),
    ).rejects.toThrow('refused');
    expect(held.takeHeld('createOrder')).toBe(false);
  });
});

/**
 * A check's fault on an order operation must name its order: an unscoped one is taken by whatever
 * call on any order comes first (the market's worker on an earlier check's order), so the check's
 * verdict would depend on timing. Refused when injected, for every check.
 */
import { ORDER_SERVICE_OPERATIONS } from '@bnpl-kit/core/wire';
import { describe, expect, it } from 'vitest';
import type { ContractSandbox, RouteFaultSpec, WebhookFaultSpec } from '../src/sandbox/driver.js';
import { orderScopedFaults, unscopedFaultProblem } from '../src/support/order-scoped-faults.js';

describe('unscopedFaultProblem', () => {
  it.each(ORDER_SERVICE_OPERATIONS)(
    'refuses a %s fault without order_id and takes one with it',
    (operation) => {
      expect(unscopedFaultProblem({ operation, action: 'error', status: 500 })).toMatch(
        new RegExp(`${operation} fault without order_id`),
      );
      expect(
        unscopedFaultProblem({ operation, action: 'error', status: 500, order_id: 'ord-1' }),
      ).toBeUndefined();
    },
  );

  it('takes faults on calls that act on no order, and webhook faults, as they are', () => {
    expect(unscopedFaultProblem({ operation: 'createOrder', action: 'timeout' })).toBeUndefined();
    expect(unscopedFaultProblem({ operation: 'token', action: 'error', status: 503 })).toBeUndefined();
    expect(unscopedFaultProblem({ action: 'drop', times: 1 })).toBeUndefined();
  });
});

describe('orderScopedFaults', () => {
  /** A sandbox written as a class, with private state, as a user's own may be. */
  class RecordingSandbox {
    readonly injected: (RouteFaultSpec | WebhookFaultSpec)[] = [];
    #calls = 3;
    readonly serviceUrl = 'http://sandbox.invalid';
    async injectFault(fault: RouteFaultSpec | WebhookFaultSpec) {
      this.injected.push(fault);
    }
    async lastCallId() {
      return this.#calls;
    }
  }

  it('refuses an unscoped order fault before it reaches the sandbox, and passes the rest through', async () => {
    const inner = new RecordingSandbox();
    const sandbox = orderScopedFaults(inner as unknown as ContractSandbox);
    await expect(
      sandbox.injectFault({ operation: 'disburseOrder', action: 'error', status: 503 }),
    ).rejects.toThrow(/disburseOrder fault without order_id/);
    const scoped: RouteFaultSpec = {
      operation: 'disburseOrder',
      action: 'error',
      status: 503,
      order_id: 'o-1',
    };
    await sandbox.injectFault(scoped);
    await sandbox.injectFault({ action: 'drop' });
    expect(inner.injected).toEqual([scoped, { action: 'drop' }]);
    // Everything else is the sandbox's own, methods run on it (its private fields work).
    expect(sandbox.serviceUrl).toBe('http://sandbox.invalid');
    expect(await sandbox.lastCallId()).toBe(3);
  });
});

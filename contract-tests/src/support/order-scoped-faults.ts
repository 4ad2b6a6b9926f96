/**
 * Every fault a check injects on a call that acts on one order is scoped to that order. The market's
 * worker acts on earlier checks' orders on its own schedule (a disbursement retried, a status
 * reconciled); an unscoped getOrder, revertOrder or disburseOrder fault is met by whichever of those
 * calls comes first, so the check's own call is not faulted and the check's verdict depends on timing.
 * Enforced here, for every check's sandbox, rather than remembered at each place a check injects one.
 */
import type { ContractSandbox, RouteFaultSpec, WebhookFaultSpec } from '../sandbox/driver.js';
import { isOrderOperation } from './own-calls.js';

/** Why `fault` may not be injected by a check, or undefined when it may. */
export function unscopedFaultProblem(fault: RouteFaultSpec | WebhookFaultSpec): string | undefined {
  if (!('operation' in fault) || !isOrderOperation(fault.operation) || fault.order_id) return undefined;
  return `certify injected a ${fault.operation} fault without order_id: the market's worker, acting on other orders, could meet it instead of this check's call (a defect in the check, not in the market)`;
}

/** `sandbox` as a check sees it: its injectFault refuses a fault on an order operation without an order. */
export function orderScopedFaults(sandbox: ContractSandbox): ContractSandbox {
  return new Proxy(sandbox, {
    get(target, property) {
      if (property === 'injectFault') {
        return async (fault: RouteFaultSpec | WebhookFaultSpec) => {
          const problem = unscopedFaultProblem(fault);
          if (problem) throw new Error(problem);
          await target.injectFault(fault);
        };
      }
      const value: unknown = Reflect.get(target, property, target);
      // A sandbox may be a class instance: its methods run on it, not on the proxy.
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}

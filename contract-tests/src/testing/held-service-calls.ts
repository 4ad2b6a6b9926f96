/**
 * "The service never answers" without waiting for a loaded machine's budget. A market under test
 * gives each service call a timeout its healthy calls stay within on a machine whose cores are busy
 * (15 s: five cut off healthy push-claims calls there). A check that makes the sandbox hold a call
 * (a `timeout` route fault, WIRE §6) then waited those 15 s for nothing, once per market and mode.
 * The test that injects the fault knows which calls the sandbox will hold: it says so here, and the
 * market gives exactly those calls a short timeout. Its own timeout still decides the answer, only
 * sooner; no healthy call's budget shrinks.
 */
import type { ContractSandbox } from '../sandbox/driver.js';

/** How long a market waits for a call the sandbox holds: the hold is certain, not a slow answer. */
export const HELD_CALL_TIMEOUT_MS = 100;

export interface HeldServiceCalls {
  /**
   * Whether the call of `operation` (the sandbox's name for it, e.g. `createOrder`) that starts now
   * is one the sandbox was told to hold; it counts as one of them.
   */
  takeHeld(operation: string): boolean;
  /** The timeout a market gives such a call. */
  readonly heldTimeoutMs: number;
}

export interface HeldServiceCallsRegister extends HeldServiceCalls {
  /** The sandbox will hold the next `times` calls of `operation`. */
  hold(operation: string, times: number): void;
  /** It holds nothing more (its faults were cleared). */
  release(): void;
}

export function heldServiceCalls(heldTimeoutMs = HELD_CALL_TIMEOUT_MS): HeldServiceCallsRegister {
  const pending = new Map<string, number>();
  return {
    heldTimeoutMs,
    takeHeld(operation) {
      const left = pending.get(operation) ?? 0;
      if (left === 0) return false;
      if (left === 1) pending.delete(operation);
      else pending.set(operation, left - 1);
      return true;
    },
    hold(operation, times) {
      pending.set(operation, (pending.get(operation) ?? 0) + times);
    },
    release() {
      pending.clear();
    },
  };
}

/** `sandbox`, telling `held` about every `timeout` fault injected into it and every clearing. */
export function holdingSandbox(sandbox: ContractSandbox, held: HeldServiceCallsRegister): ContractSandbox {
  return {
    ...sandbox,
    async injectFault(fault) {
      await sandbox.injectFault(fault);
      if ('operation' in fault && fault.action === 'timeout') held.hold(fault.operation, fault.times ?? 1);
    },
    async clearFaults() {
      held.release();
      await sandbox.clearFaults();
    },
  };
}

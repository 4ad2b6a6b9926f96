/**
 * Which service calls of a check's window count against it: the market's worker disburses and
 * reconciles earlier checks' orders on its own schedule, and those calls are not the check's.
 */
import { describe, expect, it } from 'vitest';
import { callsOfCheck, isCallOnOrder } from '../src/support/own-calls.js';
import { serviceCall } from './support/service-call.js';

const ORDERS = '/v1/integration/bnpl-consumers/orders';

const call = (operation: string, path: string) => serviceCall(operation, 200, { path });

describe('callsOfCheck', () => {
  it("drops calls on another order (the worker's disbursement retried), keeps those on the check's", () => {
    const ours = call('disburseOrder', `${ORDERS}/ord_1/disburse`);
    const workers = call('disburseOrder', `${ORDERS}/ord_2/disburse`);
    const reconciled = call('getOrder', `${ORDERS}/ord_3`);
    expect(callsOfCheck([ours, workers, reconciled], ['ord_1'])).toEqual([ours]);
  });

  it('keeps every call that acts on no order (create, claim tokens), whatever the orders', () => {
    const created = call('createOrder', ORDERS);
    const pushed = call('pushClaimTokens', '/v1/claims/crf-1/push');
    expect(callsOfCheck([created, pushed], [])).toEqual([created, pushed]);
  });

  it('matches an order ID as a whole path segment, decoded, never as a prefix of another', () => {
    const encoded = call('revertOrder', `${ORDERS}/ord%20x/revert`);
    expect(callsOfCheck([encoded], ['ord x'])).toEqual([encoded]);
    expect(callsOfCheck([encoded], ['ord'])).toEqual([]);
  });
});

describe('isCallOnOrder', () => {
  it('holds for an order operation whose path has the ID as a whole decoded segment, and nothing else', () => {
    expect(isCallOnOrder(call('disburseOrder', `${ORDERS}/ord_1/disburse`), 'ord_1')).toBe(true);
    expect(isCallOnOrder(call('revertOrder', `${ORDERS}/a%2Fb/revert`), 'a/b')).toBe(true);
    expect(isCallOnOrder(call('getOrder', `${ORDERS}/123`), 123)).toBe(true);
    // A prefix of another order's ID, the ID's encoded form read as text, a call on no order.
    expect(isCallOnOrder(call('disburseOrder', `${ORDERS}/ord_12/disburse`), 'ord_1')).toBe(false);
    expect(isCallOnOrder(call('getOrder', `${ORDERS}/a%2Fb`), 'a%2Fb')).toBe(false);
    expect(isCallOnOrder(call('pushClaimTokens', '/v1/claims/ord_1/push'), 'ord_1')).toBe(false);
  });
});

describe('the operations that act on one order', () => {
  it("are the service routes with an order ID in their path: get, revert and disburse (another order's are dropped)", () => {
    const onOther = ['getOrder', 'revertOrder', 'disburseOrder', 'createOrder', 'pushClaimTokens'].map(
      (operation) => call(operation, `${ORDERS}/ord_9/x`),
    );
    expect(callsOfCheck(onOther, ['ord_1']).map((c) => c.operation)).toEqual([
      'createOrder',
      'pushClaimTokens',
    ]);
  });
});

/**
 * The token checks' allowance for the market's other clients (R-SVC-03/04): a worker with its own
 * token that met the service's 401 may renew inside a check's window, even when its 401 came just
 * before the window opened (the nestjs README server's worker did, in CI, during
 * service.token.renewed-once); a 401 that a renewal already answered brings no more.
 */
import { describe, expect, it } from 'vitest';
import { refusedElsewhere } from '../src/support/token-renewals.js';
import { serviceCall as call } from './support/service-call.js';

const notOurs = () => false;

describe('refusedElsewhere', () => {
  it("counts another client's 401 just before the window, its renewal inside", () => {
    const workers401 = call('disburseOrder', 401);
    const since = workers401.id;
    const calls = [workers401, call('token', 200), call('createOrder', 401, { fault: 'error' })];
    expect(refusedElsewhere(calls, since, notOurs)).toBe(1);
  });

  it('counts no 401 before the window that a token request already answered (calls met it together, renewed once)', () => {
    const before = [
      call('getOrder', 401),
      call('getOrder', 401),
      call('getOrder', 401),
      call('token', 200),
      call('getOrder', 200),
    ];
    const since = before.at(-1)!.id;
    expect(refusedElsewhere([...before, call('token', 200)], since, notOurs)).toBe(0);
  });

  it("counts each 401 of other clients inside the window, not the check's own calls nor injected faults", () => {
    const since = call('getOrder', 200).id;
    const ours = call('createOrder', 401);
    const calls = [
      ours,
      call('createOrder', 401, { fault: 'error' }),
      call('disburseOrder', 401),
      call('cancelOrder', 401),
      call('token', 401),
      call('getOrder', 500),
    ];
    expect(refusedElsewhere(calls, since, (c) => c === ours)).toBe(2);
  });
});

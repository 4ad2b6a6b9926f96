import { describe, expect, it } from 'vitest';
import { type SandboxOrder, SandboxState, type ServiceUser } from '../src/state.js';

function order(id: string, organizationId: string, referenceId: string): SandboxOrder {
  return {
    id,
    organizationId,
    referenceId,
    totalAmount: { value: '100', currency: 'VND' },
    orderLines: [],
    paymentRecipient: { type: 'BANK_ACCOUNT', id: 'acc-1' },
    status: 'PENDING',
    readyForDisbursement: false,
    credifyId: undefined,
    history: [],
    createdAt: 0,
    updatedAt: 0,
  };
}

describe('SandboxState.orderByReference', () => {
  it('finds an order by its organisation and reference, not another organisation’s', () => {
    const state = new SandboxState();
    state.orders.set('ord_a', order('ord_a', 'org-1', 'ref-1'));
    state.orders.set('ord_b', order('ord_b', 'org-2', 'ref-1'));
    expect(state.orderByReference('org-1', 'ref-1')?.id).toBe('ord_a');
    expect(state.orderByReference('org-2', 'ref-1')?.id).toBe('ord_b');
    expect(state.orderByReference('org-1', 'ref-2')).toBeUndefined();
  });

  it('follows every way the map is written: replace, delete, clear', () => {
    const state = new SandboxState();
    state.orders.set('ord_a', order('ord_a', 'org-1', 'ref-1'));
    state.orders.set('ord_a', order('ord_a', 'org-1', 'ref-2'));
    expect(state.orderByReference('org-1', 'ref-1')).toBeUndefined();
    expect(state.orderByReference('org-1', 'ref-2')?.id).toBe('ord_a');
    state.orders.delete('ord_a');
    expect(state.orderByReference('org-1', 'ref-2')).toBeUndefined();
    state.orders.set('ord_c', order('ord_c', 'org-1', 'ref-3'));
    state.orders.clear();
    expect(state.orderByReference('org-1', 'ref-3')).toBeUndefined();
    expect(state.orders.size).toBe(0);
  });
});

function user(credifyId: string, organizationId: string, localId: string): ServiceUser {
  return { credifyId, organizationId, localId, phoneNumber: '0900000000', countryCode: '+84', createdAt: 0 };
}

describe('SandboxState.userByLocalId', () => {
  it('finds a user by organisation and local ID, not another organisation’s', () => {
    const state = new SandboxState();
    state.users.set('cid-a', user('cid-a', 'org-1', 'local-1'));
    state.users.set('cid-b', user('cid-b', 'org-2', 'local-1'));
    expect(state.userByLocalId('org-1', 'local-1')?.credifyId).toBe('cid-a');
    expect(state.userByLocalId('org-2', 'local-1')?.credifyId).toBe('cid-b');
    expect(state.userByLocalId('org-1', 'local-2')).toBeUndefined();
  });

  it('follows replace, delete and clear', () => {
    const state = new SandboxState();
    state.users.set('cid-a', user('cid-a', 'org-1', 'local-1'));
    state.users.set('cid-a', user('cid-a', 'org-1', 'local-2'));
    expect(state.userByLocalId('org-1', 'local-1')).toBeUndefined();
    expect(state.userByLocalId('org-1', 'local-2')?.credifyId).toBe('cid-a');
    state.users.delete('cid-a');
    expect(state.userByLocalId('org-1', 'local-2')).toBeUndefined();
    state.users.set('cid-c', user('cid-c', 'org-1', 'local-3'));
    state.users.clear();
    expect(state.userByLocalId('org-1', 'local-3')).toBeUndefined();
  });
});

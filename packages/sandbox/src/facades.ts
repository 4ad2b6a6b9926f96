/**
 * The sections of the `Sandbox` object that read and drive its records (organisations, orders,
 * users, claims, transactions, webhooks, faults), each a thin view over the state and the domain
 * classes `createSandbox` wires together.
 */
import { READ_FILTERED_OFFERS_SCOPE } from '@bnpl-kit/core/wire';
import { claimsMatchPushedToken, organizationPublicKey } from './claims.js';
import type { FaultRegistry } from './faults.js';
import type { OrderBook } from './orders.js';
import { normalizeOrganization } from './organizations.js';
import type { Sandbox } from './sandbox.js';
import type { SandboxState } from './state.js';
import type { TokenIssuer } from './tokens.js';
import type { WebhookSender } from './webhooks/sender.js';

export function organizationsFacade(state: SandboxState, tokens: TokenIssuer): Sandbox['organizations'] {
  return {
    list: () => [...state.organizations.values()],
    get: (id) => state.organizations.get(id),
    primary() {
      const first = state.organizations.values().next();
      if (first.done) throw new Error('The sandbox has no organisation');
      return first.value;
    },
    upsert(input) {
      const organization = normalizeOrganization(input, state.organizations.get(input.id));
      state.organizations.set(organization.id, organization);
      return organization;
    },
    update(id, patch) {
      const previous = state.organizations.get(id);
      if (!previous) throw new Error(`No organisation ${id}`);
      const organization = normalizeOrganization({ ...patch, id }, previous);
      state.organizations.set(id, organization);
      return organization;
    },
    remove: (id) => state.organizations.delete(id),
    async claimPublicKey(id) {
      const organization = state.organizations.get(id);
      return organization ? organizationPublicKey(organization) : undefined;
    },
    offerFilterToken: (id) => tokens.issue(id, [READ_FILTERED_OFFERS_SCOPE], 'offer-filter').value,
    revokeAccessTokens: (id) => tokens.revokeApiTokens(id),
  };
}

export function ordersFacade(state: SandboxState, orders: OrderBook): Sandbox['orders'] {
  return {
    list: () => [...state.orders.values()],
    get: (id) => state.orders.get(id),
    approve: (id, approveOptions) => orders.approve(id, approveOptions),
    reject: (id) => orders.reject(id),
    confirmReadiness: (id, via) => orders.confirmReadiness(id, via),
    markPaid: (id) => orders.markPaid(id),
  };
}

/** The records the service keeps about people: its users, their pushed claims, their transactions. */
export function peopleFacades(
  state: SandboxState,
  orders: OrderBook,
): Pick<Sandbox, 'users' | 'claims' | 'transactions'> {
  return {
    users: { list: () => [...state.users.values()], get: (id) => state.users.get(id) },
    claims: {
      list: (credifyId) => state.claimsOf(credifyId),
      matches: (credifyId, scopeName, scopeClaims) =>
        claimsMatchPushedToken(state, credifyId, scopeName, scopeClaims),
    },
    transactions: {
      list: () => [...state.transactions.values()],
      upsert: (input) => orders.upsertTransaction(input),
      completeDispute: (id, status) => orders.completeDispute(id, status),
    },
  };
}

export function webhooksFacade(
  sender: WebhookSender,
  emit: Sandbox['webhooks']['emit'],
): Sandbox['webhooks'] {
  return {
    list: (filter) => sender.list(filter),
    get: (id) => sender.get(id),
    replay: (id, replayOptions) => sender.replay(id, replayOptions),
    restore: (deliveries) => sender.restore(deliveries),
    emit,
    idle: () => sender.idle(),
    flushHeld: () => sender.flushHeld(),
    schedule: sender.schedule,
  };
}

export function faultsFacade(faults: FaultRegistry): Sandbox['faults'] {
  return { inject: (input) => faults.add(input), list: () => faults.list(), clear: () => faults.clear() };
}

/**
 * The sandbox's state as records (kind, id, JSON body) and back. What is kept: organisations,
 * service users, orders with their history, access tokens still valid, claim tokens, transactions,
 * disbursements, repayments, stored idempotent answers and the offers last ranked for each user. What is not: webhook deliveries (a
 * restart starts a fresh delivery log; the market reconciles a missed status through the get-order
 * call), injected faults and the auto scenario (both are set per run).
 */
import type { Organization } from '../organizations.js';
import type { ClaimTokenRecord, Disbursement, SandboxState } from '../state.js';
import type { Delivery } from '../webhooks/types.js';
import type { SandboxRecord } from './types.js';

/** `<kind>\u0000<id>`: one key per record, for diffing. */
export const recordKey = (kind: string, id: string) => `${kind}\u0000${id}`;

export function stateToRecords(
  state: SandboxState,
  deliveries: readonly Delivery[],
  now: number,
): SandboxRecord[] {
  const records: SandboxRecord[] = [];
  for (const d of deliveries) records.push({ kind: 'delivery', id: d.id, body: d });
  const add = (kind: string, id: string, body: unknown) => records.push({ kind, id, body });
  for (const o of state.organizations.values()) add('organization', o.id, o);
  for (const u of state.users.values()) add('user', u.credifyId, u);
  for (const o of state.orders.values()) add('order', o.id, o);
  // Expired tokens are useless after a restart; leaving them out deletes their rows.
  for (const t of state.tokens.values()) if (t.expiresAt > now) add('token', t.value, t);
  for (const [credifyId, scopes] of state.claims) {
    for (const c of scopes.values()) add('claim', `${credifyId}|${c.scopeName}`, c);
  }
  for (const t of state.transactions.values()) add('transaction', t.id, t);
  for (const d of state.disbursements) add('disbursement', d.id, d);
  for (const [orderId, r] of state.repayments) add('repayment', orderId, r);
  for (const [key, answer] of state.idempotency) add('idempotency', key, answer);
  for (const [credifyId, offers] of state.rankedOffers) add('ranked-offers', credifyId, offers);
  return records;
}

/**
 * The kinds restored as one entry of a map of the state, keyed by the record's ID. A Map, so a
 * stored kind such as `constructor` cannot reach an object's prototype.
 */
const KEYED_KINDS = new Map<string, (state: SandboxState) => Map<string, unknown>>([
  ['user', (state) => state.users],
  ['order', (state) => state.orders],
  ['token', (state) => state.tokens],
  ['transaction', (state) => state.transactions],
  ['repayment', (state) => state.repayments],
  ['idempotency', (state) => state.idempotency],
  ['ranked-offers', (state) => state.rankedOffers],
]);

/**
 * Fills `state` from records written by `stateToRecords`. Organisations already in `state` (the
 * ones configured for this run, e.g. with this run's webhook URL) win over stored ones. A kind a
 * newer version wrote is ignored rather than guessed at.
 */
export function restoreState(
  state: SandboxState,
  records: readonly SandboxRecord[],
): { deliveries: Delivery[] } {
  const disbursements: Disbursement[] = [];
  const deliveries: Delivery[] = [];
  for (const { kind, id, body } of records) {
    const keyed = KEYED_KINDS.get(kind);
    if (keyed) keyed(state).set(id, body);
    else if (kind === 'organization') {
      if (!state.organizations.has(id)) state.organizations.set(id, body as Organization);
    } else if (kind === 'claim') {
      const claim = body as ClaimTokenRecord;
      const scopes = state.claims.get(claim.credifyId) ?? new Map<string, ClaimTokenRecord>();
      scopes.set(claim.scopeName, claim);
      state.claims.set(claim.credifyId, scopes);
    } else if (kind === 'disbursement') disbursements.push(body as Disbursement);
    else if (kind === 'delivery') deliveries.push(body as Delivery);
  }
  // Disbursement IDs count up (`dsb_<n>`), so the list keeps that order.
  disbursements.sort((a, b) => a.at - b.at || serial(a.id) - serial(b.id));
  state.disbursements.push(...disbursements);
  // Delivery IDs count up too (`dlv_<n>`): the log keeps its order.
  deliveries.sort((a, b) => serial(a.id) - serial(b.id));
  return { deliveries };
}

const serial = (id: string) => Number(/(\d+)$/.exec(id)?.[1] ?? 0);

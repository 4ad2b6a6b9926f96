/** The sandbox's records. Everything lives in memory: a sandbox is started fresh for each run. */
import type { Amount, Invoice, OrderLine, OrderStatus } from '@bnpl-kit/core';
import type { Organization } from './organizations.js';

/** The ID of a record the service creates: a kind prefix and a random UUID (`ord_…`, `crf_…`, `evt_…`). */
export const serviceId = (prefix: 'ord' | 'crf' | 'evt') => `${prefix}_${crypto.randomUUID()}`;

export interface ServiceUser {
  credifyId: string;
  organizationId: string;
  localId: string;
  phoneNumber: string | undefined;
  countryCode: string | undefined;
  createdAt: number;
}

export interface SandboxOrder {
  id: string;
  organizationId: string;
  referenceId: string;
  totalAmount: Amount;
  orderLines: OrderLine[];
  paymentRecipient: { type: string; id: string };
  status: OrderStatus;
  /** The provider confirmed it is ready to disburse (DISBURSING or the requirement event). */
  readyForDisbursement: boolean;
  credifyId: string | undefined;
  history: { status: OrderStatus; at: number }[];
  createdAt: number;
  updatedAt: number;
}

export interface AccessTokenRecord {
  value: string;
  organizationId: string;
  scopes: string[];
  expiresAt: number;
  /** `api`: issued to the market for its API key; `offer-filter`: issued to call the market. */
  purpose: 'api' | 'offer-filter';
}

export interface ClaimTokenRecord {
  credifyId: string;
  organizationId: string;
  scopeName: string;
  scopeHash: string;
  iat: number;
  token: string;
  receivedAt: number;
}

export interface Transaction {
  id: string;
  credifyId: string;
  orderId: string | undefined;
  offerCode: string;
  status: string;
  disputeStatus: string | undefined;
  updatedAt: number;
}

export interface Disbursement {
  id: string;
  orderId: string;
  organizationId: string;
  amount: Amount;
  invoice: Invoice | undefined;
  /** `api`: the market's disburse call; `provider`: paid without one (basic mode, dashboard flow). */
  source: 'api' | 'provider';
  idempotencyKey: string | undefined;
  at: number;
}

/** A user paid an order back in full on the hosted passport page. */
export interface Repayment {
  orderId: string;
  credifyId: string;
  organizationId: string;
  amount: Amount;
  at: number;
}

export interface StoredAnswer {
  fingerprint: string;
  status: number;
  body: string;
}

/**
 * Records by ID that also know each record by its organisation and a second key the organisation
 * chose (an order's `reference_id`, a user's `local_id`): order creation and availability look
 * those up on every call, and a long-lived sandbox (the reference server's) holds every record it
 * was ever sent. Every writer (the handlers, restoring saved records) goes through `set`, so the
 * index cannot drift; neither key of a record ever changes.
 */
class IndexedByOrganization<T extends { organizationId: string }> extends Map<string, T> {
  /** Organisation ID, then the second key. */
  readonly #byKey = new Map<string, Map<string, T>>();
  readonly #keyOf: (record: T) => string;

  constructor(keyOf: (record: T) => string) {
    super();
    this.#keyOf = keyOf;
  }

  override set(id: string, record: T): this {
    this.#unindex(id);
    let keys = this.#byKey.get(record.organizationId);
    if (!keys) {
      keys = new Map();
      this.#byKey.set(record.organizationId, keys);
    }
    keys.set(this.#keyOf(record), record);
    return super.set(id, record);
  }

  override delete(id: string): boolean {
    this.#unindex(id);
    return super.delete(id);
  }

  override clear(): void {
    this.#byKey.clear();
    super.clear();
  }

  byKey(organizationId: string, key: string): T | undefined {
    return this.#byKey.get(organizationId)?.get(key);
  }

  #unindex(id: string): void {
    const previous = this.get(id);
    if (previous) this.#byKey.get(previous.organizationId)?.delete(this.#keyOf(previous));
  }
}

export class SandboxState {
  readonly organizations = new Map<string, Organization>();
  /** By credify ID; also by organisation and `local_id`. */
  readonly users: Map<string, ServiceUser> & Pick<IndexedByOrganization<ServiceUser>, 'byKey'> =
    new IndexedByOrganization<ServiceUser>((user) => user.localId);
  /** By order ID; also by organisation and `reference_id`. */
  readonly orders: Map<string, SandboxOrder> & Pick<IndexedByOrganization<SandboxOrder>, 'byKey'> =
    new IndexedByOrganization<SandboxOrder>((order) => order.referenceId);
  readonly tokens = new Map<string, AccessTokenRecord>();
  /** By credify ID, then scope name: the latest token pushed for each scope. */
  readonly claims = new Map<string, Map<string, ClaimTokenRecord>>();
  readonly transactions = new Map<string, Transaction>();
  readonly disbursements: Disbursement[] = [];
  /** By order ID: repayments made on the passport page. */
  readonly repayments = new Map<string, Repayment>();
  /**
   * By credify ID: the offers availability last answered for the user, as the market's offer
   * filtering ranked them (data-sharing) or every approved offer (basic). The BNPL page shows these.
   */
  readonly rankedOffers = new Map<string, Record<string, unknown>[]>();
  /** Successful answers of mutating calls by `<org>|<operation>|<Idempotency-Key>`. */
  readonly idempotency = new Map<string, StoredAnswer>();

  userByLocalId(organizationId: string, localId: string): ServiceUser | undefined {
    return this.users.byKey(organizationId, localId);
  }

  orderByReference(organizationId: string, referenceId: string): SandboxOrder | undefined {
    return this.orders.byKey(organizationId, referenceId);
  }

  organizationByApiKey(key: string): { organization: Organization; permissions: string[] } | undefined {
    for (const organization of this.organizations.values()) {
      const found = organization.apiKeys.find((k) => k.key === key);
      if (found) return { organization, permissions: found.permissions };
    }
    return undefined;
  }

  claimsOf(credifyId: string): ClaimTokenRecord[] {
    return [...(this.claims.get(credifyId)?.values() ?? [])];
  }
}

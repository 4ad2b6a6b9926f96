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
 * Orders by ID that also know each order by its organisation and `reference_id`: order creation
 * looks the reference up on every call, and a long-lived sandbox (the reference server's) holds
 * every order it was ever sent. Every writer (order creation, restoring saved records) goes
 * through `set`, so the index cannot drift; an order's organisation and reference never change.
 */
class OrdersById extends Map<string, SandboxOrder> {
  /** Organisation ID, then `reference_id`. */
  readonly #byReference = new Map<string, Map<string, SandboxOrder>>();

  override set(id: string, order: SandboxOrder): this {
    this.#unindex(id);
    let references = this.#byReference.get(order.organizationId);
    if (!references) {
      references = new Map();
      this.#byReference.set(order.organizationId, references);
    }
    references.set(order.referenceId, order);
    return super.set(id, order);
  }

  override delete(id: string): boolean {
    this.#unindex(id);
    return super.delete(id);
  }

  override clear(): void {
    this.#byReference.clear();
    super.clear();
  }

  byReference(organizationId: string, referenceId: string): SandboxOrder | undefined {
    return this.#byReference.get(organizationId)?.get(referenceId);
  }

  #unindex(id: string): void {
    const previous = this.get(id);
    if (previous) this.#byReference.get(previous.organizationId)?.delete(previous.referenceId);
  }
}

export class SandboxState {
  readonly organizations = new Map<string, Organization>();
  readonly users = new Map<string, ServiceUser>();
  readonly orders: Map<string, SandboxOrder> & Pick<OrdersById, 'byReference'> = new OrdersById();
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
    for (const user of this.users.values()) {
      if (user.organizationId === organizationId && user.localId === localId) return user;
    }
    return undefined;
  }

  orderByReference(organizationId: string, referenceId: string): SandboxOrder | undefined {
    return this.orders.byReference(organizationId, referenceId);
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

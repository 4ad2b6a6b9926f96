/** The sandbox's records. Everything lives in memory: a sandbox is started fresh for each run. */
import type { Amount, Invoice, OrderLine, OrderStatus } from '@bnpl-kit/core';
import type { Organization } from './organizations.js';

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

export class SandboxState {
  readonly organizations = new Map<string, Organization>();
  readonly users = new Map<string, ServiceUser>();
  readonly orders = new Map<string, SandboxOrder>();
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
    for (const order of this.orders.values()) {
      if (order.organizationId === organizationId && order.referenceId === referenceId) return order;
    }
    return undefined;
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

/**
 * The service client's interface in model terms. The implementation (client.ts) and the sandbox
 * share one route table (routes.ts) so that they cannot drift apart; market code depends only on
 * this interface, which is also what tests fake.
 */
import type { Amount } from '../models/money.js';
import type { Invoice } from '../models/order.js';
import type { OrderLine } from '../models/order-line.js';
import type { ServiceOrderStatus } from '../models/status.js';

export interface ServiceOrder {
  id: string;
  referenceId: string;
  totalAmount: Amount;
  orderLines: OrderLine[];
  /** One of the six statuses, or, read tolerantly (WIRE §6), whatever else the service sent. */
  orderStatus: ServiceOrderStatus;
}

export interface CreateServiceOrderInput {
  referenceId: string;
  totalAmount: Amount;
  orderLines: OrderLine[];
  /** Who receives the disbursement; defaults to the organisation itself. */
  paymentRecipient?: { type: string; id: string };
}

export interface TokenIntrospection {
  active: boolean;
  scope: string;
  aud?: string | string[] | undefined;
  exp?: number | undefined;
  /** The organisation or service user the token was issued for, when the service says so. */
  sub?: string | undefined;
}

export interface AvailabilityInput {
  localId: string;
  credifyId?: string;
  phoneNumber?: string;
  countryCode?: string;
  productTypes: string[];
}

export interface AvailabilityResult {
  offers: Record<string, unknown>[];
  credifyId: string | undefined;
}

export interface CallOptions {
  signal?: AbortSignal;
  /** Overrides the derived Idempotency-Key of a mutating call. */
  idempotencyKey?: string;
}

export interface ServiceClient {
  createOrder(input: CreateServiceOrderInput, options?: CallOptions): Promise<ServiceOrder>;
  getOrder(id: string, options?: CallOptions): Promise<ServiceOrder>;
  /** "revert" on the wire: cancels an approved order. */
  cancelOrder(id: string, options?: CallOptions): Promise<ServiceOrder>;
  disburseOrder(id: string, input: { invoice?: Invoice }, options?: CallOptions): Promise<ServiceOrder>;
  pushClaimTokens(credifyId: string, claimTokens: string[], options?: CallOptions): Promise<void>;
  /** The service's webhook signing public key (base64url raw or PEM). */
  getSigningPublicKey(entityId: string, options?: CallOptions): Promise<string>;
  introspectToken(token: string, scope: string, options?: CallOptions): Promise<TokenIntrospection>;
  checkAvailability(input: AvailabilityInput, options?: CallOptions): Promise<AvailabilityResult>;
}

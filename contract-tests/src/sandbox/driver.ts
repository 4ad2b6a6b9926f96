/**
 * What the checks need from the service side. The sandbox plays the BNPL service: it holds the
 * orders the market created, acts as the provider (approve, ready, paid), delivers signed webhooks
 * and keeps the claim tokens the market pushed. Checks only use this interface, so the same checks
 * run against the in-process sandbox (through msw) and a standalone one (certify).
 */
import type { SignedWebhook } from '@bnpl-kit/core/testing';

export interface SandboxOrderView {
  id: string;
  referenceId: string;
  status: string;
  history: string[];
}

export interface DeliveryView {
  id: string;
  eventId: string;
  eventType: string;
  url: string;
  status: string;
  /** The exact JSON text the sandbox sent. */
  body: string;
  payload: Record<string, unknown>;
  attempts: { responseStatus: number | null; responseBody: string | null; outcome: string | null }[];
}

export interface ClaimTokenView {
  scopeName: string;
  scopeHash: string;
  token: string;
}

export interface AvailabilityAnswer {
  /** HTTP status of the service's answer. */
  status: number;
  credifyId: string | undefined;
  offers: Record<string, unknown>[];
  /** The service's error message when it failed (e.g. the market's offer filter answered badly). */
  error: string | undefined;
}

export interface SignWebhookInput {
  /** The URL signed for (part 2 of the message). */
  url: string;
  body: Uint8Array | string;
  eventId?: string;
  timestamp?: Date | string;
  /**
   * Sign and send this `X-Event-Timestamp` text as it is, even when it is not the exact format (the
   * malformed-but-plausible encodings a receiver must refuse, WIRE §4).
   */
  rawTimestamp?: string;
  /** Sign with this key instead of the service's (the "signed by another key" case). */
  signingKey?: string | Uint8Array;
}

/** A call the market made to the service, as the sandbox recorded it (credentials never are). */
export interface ServiceCallView {
  id: number;
  /** When the sandbox received it, epoch milliseconds by the sandbox's clock (NaN if it did not say). */
  at: number;
  /** The service operation (`createOrder`, `disburseOrder`, …; WIRE §6). */
  operation: string;
  method: string;
  path: string;
  status: number;
  idempotencyKey: string | undefined;
  body: string | undefined;
  /** Set when an injected fault answered instead of the operation. */
  fault: string | undefined;
  /** The service's answer when it refused the call (status >= 400). */
  responseBody: string | undefined;
}

/** A fault the sandbox injects into the next call(s) of a service operation (snake_case as its admin API). */
export interface RouteFaultSpec {
  operation: string;
  /**
   * `unknown_status`: the operation's answer with an `order_status` outside the six; `malformed`: a
   * 200 that is no envelope; `refused`: a 200 whose envelope says `success: false`; `delay`: the
   * operation's own answer, `delay_ms` late.
   */
  action: 'error' | 'timeout' | 'malformed' | 'refused' | 'unknown_status' | 'delay';
  status?: number;
  /** How late a `delay` answer comes (the operation's own answer). */
  delay_ms?: number;
  times?: number;
  /** Apply the operation, then lose its answer. */
  after_effect?: boolean;
  /** The status of an `unknown_status` answer (default `ON_HOLD`). */
  order_status?: string;
  /**
   * Only calls on this order (an `ORDER_SERVICE_OPERATIONS` call with its `:id`): the market's worker acting on
   * other orders meanwhile neither meets the fault nor uses it up.
   */
  order_id?: string;
}

/** A fault on the sandbox's next webhook deliveries. */
export interface WebhookFaultSpec {
  action: 'drop';
  times?: number;
  event_type?: string;
}

export interface ContractSandbox {
  /** `SERVICE_API_URL` of the market under test. */
  readonly serviceUrl: string;
  /** `APP_ID`: the market's organisation at the service. */
  readonly organizationId: string;

  /** Signs a webhook as the service does (WIRE §4), with the service's own key. */
  signWebhook(input: SignWebhookInput): Promise<SignedWebhook>;

  order(id: string): Promise<SandboxOrderView | undefined>;
  ordersByReference(referenceId: string): Promise<SandboxOrderView[]>;
  approve(orderId: string): Promise<void>;
  /** The provider declines a PENDING order: CANCELED at the service. */
  reject(orderId: string): Promise<void>;
  /** Provider confirms readiness for disbursement: `DISBURSING` (and the requirement event). */
  ready(orderId: string): Promise<void>;
  /**
   * The provider pays: `PAID`. Done too when the order is PAID already: a data-sharing market may
   * have disbursed it by itself since readiness (R-STATE-06), so no check can know beforehand.
   */
  paid(orderId: string): Promise<void>;
  disbursements(orderId: string): Promise<number>;

  /** Deliveries of order status updates for an order, oldest first. */
  deliveries(filter: { eventId?: string; orderId?: string; eventType?: string }): Promise<DeliveryView[]>;
  /**
   * Waits (bounded) until the sandbox has delivered the status update `status` of `orderId` and the
   * market answered (any answer); returns that delivery.
   */
  awaitStatusDelivery(orderId: string, status: string): Promise<DeliveryView>;
  /** Sends a delivery again with the same event ID and a fresh signature; waits for the answer. */
  replay(deliveryId: string): Promise<DeliveryView>;

  /** Availability check as the SDK makes it: finds or creates the service user for `localId`. */
  availability(localId: string): Promise<AvailabilityAnswer>;
  /** The service user ID of the market's user `localId`, created by an availability check if needed. */
  serviceUserId(localId: string): Promise<string>;
  /** Replaces the organisation's approved offers (what availability asks the market to rank). */
  setApprovedOffers(offers: Record<string, unknown>[]): Promise<Record<string, unknown>[]>;
  /** An access token for the organisation's API key (it lacks the offer filtering scope). */
  apiAccessToken(): Promise<string>;
  claimTokens(credifyId: string): Promise<ClaimTokenView[]>;
  /** The key the market's claim tokens must verify with, if the service knows it. */
  claimPublicKey(): Promise<string | undefined>;
  /** A token as the service sends with an offer filtering call. */
  offerFilterToken(): Promise<string>;
  /** Revokes the organisation's API access tokens (the market's among them): its next call is a 401. */
  revokeAccessTokens(): Promise<void>;

  /** Makes the service misbehave (WIRE §2's 502/503/504 cases); `clearFaults` ends every fault left. */
  injectFault(fault: RouteFaultSpec | WebhookFaultSpec): Promise<void>;
  clearFaults(): Promise<void>;
  /** How many calls or deliveries the faults still to fire will affect: 0 once each has fired. */
  faultsRemaining(): Promise<number>;
  /** Service calls the market made after call `sinceId`, oldest first. */
  serviceCalls(sinceId?: number): Promise<ServiceCallView[]>;
  /** The ID of the latest recorded call (0 when none), to look at what comes after it. */
  lastCallId(): Promise<number>;
  /** Service calls after `sinceId` that the service refused on its own (not injected faults). */
  refusedCalls(sinceId: number): Promise<ServiceCallView[]>;
}

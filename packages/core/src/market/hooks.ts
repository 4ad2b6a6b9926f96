/**
 * The hooks of the specification ("Backend hooks a data-sharing market must provide"), typed: seven
 * of its eight. `fetchVerificationInfo` is left out on purpose: nothing in the specification or the
 * service API consumes a verification structure, so the kit would call it for no one (see
 * docs/protocol.md §10).
 * The two auth hooks are required in every mode: there is no permissive default, and
 * `createMarket` refuses to start without them. A hook may throw a `KitError` to answer with that
 * problem (e.g. `user_not_found`); anything else it throws becomes a 500 that hides the details.
 */
import type { ClaimObject } from '../claims/types.js';
import type { KnownWebhookEvent, UnknownEvent } from '../models/events.js';
import type { Invoice } from '../models/order.js';
import type { TransitionResult } from '../models/status.js';
import type { MarketLogger } from '../observability/logger.js';
import type { MarketTransaction, StoredOrder } from './store.js';

/** Who a request was authenticated as. `id` is the market's internal user or client ID. */
export interface Principal {
  id: string;
  [key: string]: unknown;
}

export interface HookContext {
  /** The request ID (from `X-Request-Id` or generated); log with it. */
  requestId: string;
  /** The incoming request. Hooks read headers only: the kit owns the body. */
  request: Request;
  /**
   * Aborted when the client goes away, and when a hook of this request outlives `hookTimeoutMs`:
   * the request has failed then and its transaction is rolled back, so a hook still running must
   * stop (any further use of its `tx` throws).
   */
  signal: AbortSignal;
  logger: MarketLogger;
}

export interface FetchUserClaimObjectInput {
  localId: string | undefined;
  credifyId: string | undefined;
  /** Scope names or keys to include; empty means all scopes. */
  scopes: string[];
  includeCommitments: boolean;
}

export interface WebhookHookInput<Tx extends MarketTransaction = MarketTransaction> {
  eventId: string;
  event: KnownWebhookEvent;
  /**
   * The stored order the event is about, after the transition (undefined for transaction events).
   * `@bnpl-kit/store` builds it on first read: a hook that never reads it does not pay for it.
   */
  order: StoredOrder | undefined;
  /** What happened to the stored status (undefined when the event carries no status). */
  transition: TransitionResult | undefined;
  /**
   * True when this event is the provider's confirmation of readiness for disbursement
   * (`DISBURSING`, or a fulfilled disbursement requirement) and the order is APPROVED or DISBURSING
   * once the event is applied (WIRE §3 R-STATE-08: readiness for a PENDING, CANCELING, CANCELED or
   * PAID order is acknowledged and does nothing, then or later).
   * Data-sharing markets request the disbursement then (durably: enqueue it with `tx`).
   */
  readyForDisbursement: boolean;
  /** The open transaction: work done with it commits together with the processed event ID. */
  tx: Tx;
}

export interface MarketHooks<Tx extends MarketTransaction = MarketTransaction> {
  /** Authenticates the market's own systems calling the order endpoints. Return null to refuse. */
  authenticateInternalAPIClient(request: Request, ctx: HookContext): Promise<Principal | null>;
  /** Authenticates end users calling the endpoints the frontend calls (push-claims). */
  authenticateInternalUser(request: Request, ctx: HookContext): Promise<Principal | null>;
  /**
   * Loads the user and commitments and forms the basic and custom claim objects (`buildClaimObject`
   * does the naming). Offer filtering may know only one of the two IDs.
   */
  fetchUserClaimObject?(input: FetchUserClaimObjectInput, ctx: HookContext): Promise<ClaimObject>;
  /** Stores the service user ID against the internal user ID. */
  updateUserId?(input: { localId: string; credifyId: string }, ctx: HookContext): Promise<void>;
  /** Stores the commitments generated while pushing claims (scope name → commitment). */
  upsertCommitments?(
    input: { localId: string; credifyId: string; commitments: Record<string, string> },
    ctx: HookContext,
  ): Promise<void>;
  /** Processes a verified webhook inside its transaction; throwing makes the service retry. */
  handleWebhook?(input: WebhookHookInput<Tx>, ctx: HookContext): Promise<void>;
  /** The URL the provider redirects the user to once the BNPL transaction completes. */
  getBNPLCallback(order: StoredOrder, ctx: HookContext): Promise<string> | string;
  /**
   * Not one of the eight: the invoice to attach to a disbursement when the request brings none
   * (some providers require one; WIRE §5). `POST /orders/:id/disburse` without an invoice asks it,
   * and so should a market's own automatic disbursement (the reference servers' job does). Return
   * undefined to disburse without an invoice. `ctx` is undefined outside a request (a background job).
   */
  getDisbursementInvoice?(
    order: StoredOrder,
    ctx: HookContext | undefined,
  ): Promise<Invoice | undefined> | Invoice | undefined;
}

/**
 * Not one of the eight hooks: receives events whose `type` the kit does not know (WIRE §4). They
 * are acknowledged and recorded as processed either way; without this handler they are only logged.
 */
export type UnknownEventHandler<Tx extends MarketTransaction = MarketTransaction> = (
  input: { eventId: string; event: UnknownEvent; tx: Tx },
  ctx: HookContext,
) => Promise<void> | void;

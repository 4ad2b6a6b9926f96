/**
 * The eight hooks of the specification ("Backend hooks a data-sharing market must provide"), typed.
 * The two auth hooks are required in every mode: there is no permissive default, and
 * `createMarket` refuses to start without them.
 */
import type { ClaimObject } from '../claims/index.js';
import type { WebhookEvent } from '../models/events.js';
import type { TransitionResult } from '../models/status.js';
import type { MarketTransaction, StoredOrder } from './store.js';

/** Who a request was authenticated as. `id` is the market's internal user or client ID. */
export interface Principal {
  id: string;
  [key: string]: unknown;
}

export interface HookContext {
  /** The request ID (from `X-Request-Id` or generated); log with it. */
  requestId: string;
  request: Request;
}

export interface FetchUserClaimObjectInput {
  localId: string;
  credifyId: string | undefined;
  /** Scope names or keys to include; empty means all scopes. */
  scopes: string[];
  includeCommitments: boolean;
}

export interface WebhookHookInput<Tx extends MarketTransaction = MarketTransaction> {
  eventId: string;
  event: WebhookEvent;
  /** The stored order the event is about, after the transition (undefined for transaction events). */
  order: StoredOrder | undefined;
  /** What happened to the stored status (undefined when the event carries no status). */
  transition: TransitionResult | undefined;
  /**
   * True when this event is the provider's confirmation of readiness for disbursement
   * (`DISBURSING`, or a fulfilled disbursement requirement). Data-sharing markets disburse then.
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
  /** Loads the user and commitments and forms the basic and custom claim objects. */
  fetchUserClaimObject?(input: FetchUserClaimObjectInput, ctx: HookContext): Promise<ClaimObject>;
  /** Maps the market user to the predefined verification data structure. */
  fetchVerificationInfo?(input: { localId: string; credifyId: string | undefined }, ctx: HookContext): Promise<unknown>;
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
}

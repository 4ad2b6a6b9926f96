/**
 * `POST /webhook` (WIRE §4): verify the raw bytes (size, headers, algorithm, time window, then
 * Ed25519 against the URL as registered, never the Host header) → parse the event → one store
 * transaction in which the event ID is recorded, the order status moves forward and the market's
 * `handleWebhook` runs. A failure anywhere in the transaction rolls all of it back and answers 500,
 * so the service delivers again; a duplicate event ID is acknowledged without running anything.
 */
import { KitError } from '../../errors.js';
import {
  EVENT_TYPES,
  isUnknownEvent,
  type KnownWebhookEvent,
  parseWebhookEvent,
  type WebhookEvent,
} from '../../models/events.js';
import {
  forwardSourcesOf,
  type OrderStatus,
  type TransitionResult,
  transition,
} from '../../models/status.js';
import { MAX_TEXT_LENGTH, unstorableReason } from '../../models/text.js';
import { recordWebhookOutcome } from '../../observability/metrics.js';
import { withSpan } from '../../observability/telemetry.js';
import { isWebhookVerificationError } from '../../signature/errors.js';
import type { Keyring } from '../../signature/keyring.js';
import { type VerifiedWebhook, verifyRawWebhook } from '../../signature/verify.js';
import type { MarketAnswer } from '../answer.js';
import { readBodyBytes } from '../body.js';
import { bodyNotRawHelp } from '../body-hints.js';
import { callHook, header, type RouteContext } from '../context.js';
import type { WebhookHookInput } from '../hooks.js';
import type { MarketTransaction, StoredOrder, WebhookEventEffect } from '../store.js';
import { retryUnavailable } from '../store-retry.js';

const READY_FROM = new Set(['APPROVED', 'DISBURSING']);

/** The request's headers as the verifier reads them, through the bridge's cheap single lookups. */
class RequestHeaders {
  constructor(private readonly request: Request) {}
  get(name: string): string | null {
    return header(this.request, name);
  }
}

function verifyWith(ctx: RouteContext, body: Uint8Array, keys: Keyring): Promise<VerifiedWebhook> {
  const { deps, request } = ctx;
  // The raw variant: `readBodyBytes` already applied the size cap and the "not raw" check ran first.
  return verifyRawWebhook(
    { method: request.method, url: deps.webhookUrl, headers: new RequestHeaders(request) },
    body,
    { keys, now: deps.now(), toleranceSeconds: deps.config.webhookToleranceSeconds ?? 300 },
  );
}

function verify(ctx: RouteContext, body: Uint8Array): Promise<VerifiedWebhook> {
  // A promise chain rather than an `async` function: this runs on every delivery.
  let first: Promise<VerifiedWebhook>;
  try {
    const keys = ctx.deps.webhookKeys.current();
    first =
      keys instanceof Promise ? keys.then((k) => verifyWith(ctx, body, k)) : verifyWith(ctx, body, keys);
  } catch (error) {
    return Promise.reject(error);
  }
  return first.catch((error: unknown) => retryWithFreshKeys(ctx, body, error));
}

async function retryWithFreshKeys(
  ctx: RouteContext,
  body: Uint8Array,
  error: unknown,
): Promise<VerifiedWebhook> {
  if (!isWebhookVerificationError(error) || error.code !== 'signature_invalid') throw error;
  // Perhaps the service rotated its key: fetch it again (rate-limited) and retry once.
  const fresh = await ctx.deps.webhookKeys.refreshAfterFailure();
  if (!fresh) throw error;
  return verifyWith(ctx, body, fresh);
}

function orderIdOf(event: WebhookEvent): string | undefined {
  return 'orderId' in event && typeof event.orderId === 'string' ? event.orderId : undefined;
}

interface Outcome {
  duplicate: boolean;
}

/** What `apply` needs to know about the order, however the store produced it. */
interface OrderState {
  order: StoredOrder | undefined;
  /** Status before the event, when a stored order is named. */
  previousStatus: OrderStatus | undefined;
}

function effectOf(eventId: string, event: WebhookEvent, withOrder: boolean): WebhookEventEffect {
  // An unknown event is only recorded: the kit does not know what its fields mean.
  if (isUnknownEvent(event)) {
    return { eventId, eventType: event.type, orderId: undefined, statusUpdate: undefined, withOrder: false };
  }
  const statusUpdate =
    event.type === EVENT_TYPES.orderStatusUpdated
      ? {
          to: event.orderStatus,
          allowedFrom: forwardSourcesOf(event.orderStatus),
          source: `webhook:${eventId}`,
        }
      : undefined;
  return { eventId, eventType: event.type, orderId: orderIdOf(event), statusUpdate, withOrder };
}

/** The three-call path, for stores without `applyWebhookEvent` (the memory store, custom stores). */
async function applyStepwise(
  eventId: string,
  event: WebhookEvent,
  tx: MarketTransaction,
  now: number,
): Promise<OrderState | undefined> {
  if (!(await tx.markEventProcessed(eventId, event.type))) return undefined;
  if (isUnknownEvent(event)) return { order: undefined, previousStatus: undefined };
  const orderId = orderIdOf(event);
  let order = orderId === undefined ? undefined : await tx.getOrderForUpdate(orderId);
  const previousStatus = order?.status;
  if (order && event.type === EVENT_TYPES.orderStatusUpdated) {
    const result = transition(order.status, event.orderStatus);
    if (result.changed) {
      await tx.setOrderStatus({
        orderId: order.id,
        from: order.status,
        to: result.status,
        source: `webhook:${eventId}`,
      });
      // The row is locked by this transaction, so the new state is known without reading it back.
      order = { ...order, status: result.status, updatedAt: new Date(now) };
    }
  }
  return { order, previousStatus };
}

/**
 * After the event ID is recorded and the status moved: logs an ignored status update and runs the
 * market's hooks (still inside the transaction when there is one).
 */
async function afterApply(
  ctx: RouteContext,
  eventId: string,
  event: WebhookEvent,
  state: OrderState,
  tx: MarketTransaction | undefined,
): Promise<void> {
  const { deps, hookContext } = ctx;
  if (isUnknownEvent(event)) {
    // WIRE §6: a status outside the six is recorded (with the event ID) and reported, and moves nothing.
    if (event.reason === 'unknown_order_status') {
      deps.logger.warn(
        { requestId: ctx.requestId, eventId, orderId: event.orderId, serviceStatus: event.orderStatus },
        'acknowledged an order status update with a status outside the six known ones; stored status kept',
      );
    }
    const handler = deps.onUnknownEvent;
    if (handler && tx)
      await callHook(ctx, 'onUnknownEvent', () => handler({ eventId, event, tx }, hookContext));
    else if (event.reason === 'unknown_type')
      deps.logger.info(
        { requestId: ctx.requestId, eventId, type: event.type },
        'acknowledged a webhook of unknown type',
      );
    return;
  }
  const { previousStatus } = state;
  let result: TransitionResult | undefined;
  if (previousStatus !== undefined && event.type === EVENT_TYPES.orderStatusUpdated) {
    result = transition(previousStatus, event.orderStatus);
    if (!result.changed && result.reason === 'not_forward') {
      deps.logger.info(
        {
          requestId: ctx.requestId,
          eventId,
          orderId: orderIdOf(event),
          stored: previousStatus,
          received: event.orderStatus,
        },
        'late or out-of-order status update acknowledged; stored status kept',
      );
    }
  }
  const handle = deps.hooks.handleWebhook;
  if (!handle || !tx) return;
  const readiness =
    (event.type === EVENT_TYPES.orderStatusUpdated && event.orderStatus === 'DISBURSING') ||
    (event.type === EVENT_TYPES.disbursementRequirementUpdated && event.isFulfilled);
  // The order is read only when the answer depends on it: a store may build it on first read.
  const statusNow = readiness ? state.order?.status : undefined;
  const readyForDisbursement = readiness && (statusNow === undefined || READY_FROM.has(statusNow));
  await callHook(ctx, 'handleWebhook', () =>
    handle(hookInput(eventId, event, state, result, readyForDisbursement, tx), hookContext),
  );
}

/**
 * The hook's input, with `order` passed through as the store gave it: a store that builds the
 * order on first read (`@bnpl-kit/store` does) builds it only if the hook reads it. `order` stays
 * an own enumerable property (spread, `Object.keys` and JSON see it) and can be assigned.
 */
function hookInput(
  eventId: string,
  event: KnownWebhookEvent,
  state: OrderState,
  transition: TransitionResult | undefined,
  readyForDisbursement: boolean,
  tx: MarketTransaction,
): WebhookHookInput {
  let replaced: { order: StoredOrder | undefined } | undefined;
  return {
    eventId,
    event,
    get order() {
      return replaced === undefined ? state.order : replaced.order;
    },
    set order(order) {
      replaced = { order };
    },
    transition,
    readyForDisbursement,
    tx,
  };
}

async function applyInTransaction(
  ctx: RouteContext,
  eventId: string,
  event: WebhookEvent,
  tx: MarketTransaction,
): Promise<Outcome> {
  let state: OrderState | undefined;
  if (tx.applyWebhookEvent) {
    const applied = await tx.applyWebhookEvent(
      effectOf(eventId, event, ctx.deps.hooks.handleWebhook !== undefined),
    );
    state = applied.duplicate ? undefined : applied;
  } else {
    state = await applyStepwise(eventId, event, tx, ctx.deps.now());
  }
  if (state === undefined) return DUPLICATE_OUTCOME;
  await afterApply(ctx, eventId, event, state, tx);
  return APPLIED_OUTCOME;
}

/**
 * The whole effect in as few round trips as the store allows: one statement and no transaction
 * around it when nothing has to run inside one (no `handleWebhook`, no unknown-event handler for
 * this event) and the store supports it; else a transaction with the hooks inside.
 */
async function apply(ctx: RouteContext, eventId: string, event: WebhookEvent): Promise<Outcome> {
  const { store } = ctx.deps;
  const needsTransaction =
    ctx.deps.hooks.handleWebhook !== undefined ||
    (ctx.deps.onUnknownEvent !== undefined && isUnknownEvent(event));
  if (!needsTransaction && store.applyWebhookEvent) {
    const applied = await store.applyWebhookEvent(effectOf(eventId, event, false));
    if (applied.duplicate) return DUPLICATE_OUTCOME;
    await afterApply(ctx, eventId, event, applied, undefined);
    return APPLIED_OUTCOME;
  }
  return store.transaction((tx) => applyInTransaction(ctx, eventId, event, tx));
}

const DUPLICATE_OUTCOME: Outcome = { duplicate: true };
const APPLIED_OUTCOME: Outcome = { duplicate: false };

export async function webhook(ctx: RouteContext): Promise<MarketAnswer> {
  let eventType: string | undefined;
  try {
    const { answer, type, duplicate } = await receive(ctx, (type) => {
      eventType = type;
    });
    recordWebhookOutcome(duplicate ? 'duplicate' : 'processed', type);
    return answer;
  } catch (error) {
    recordWebhookOutcome(KitError.fromUnknown(error).code, eventType);
    throw error;
  }
}

async function receive(
  ctx: RouteContext,
  parsed: (type: string) => void,
): Promise<{ answer: MarketAnswer; type: string; duplicate: boolean }> {
  const help = bodyNotRawHelp(ctx.request);
  if (help !== undefined) {
    await ctx.request.body?.cancel().catch(() => {});
    throw new KitError(
      'payload_not_raw',
      `The webhook body reached the kit already parsed and re-serialized, so its signature cannot be checked. ${help}`,
    );
  }
  const body = await readBodyBytes(ctx.request, ctx.deps.limits.maxBodyBytes);
  const verified = await withSpan('bnpl.webhook.verify', {}, () => verify(ctx, body));
  checkEventId(verified.eventId);
  // Decoded strictly, as every other route's body is: bytes that are not UTF-8 are a 400.
  const event = parseWebhookEvent(verified.body);
  parsed(event.type);
  // Safe to repeat: a lost connection rolled the effect back, and the event ID dedupes a retry.
  const outcome = await withSpan(
    'bnpl.webhook.apply',
    { 'bnpl.event_type': event.type, 'bnpl.event_id': verified.eventId },
    () => retryUnavailable(() => apply(ctx, verified.eventId, event)),
  );
  return {
    answer: acknowledgement(outcome.duplicate ? DUPLICATE : RECEIVED),
    type: event.type,
    duplicate: outcome.duplicate,
  };
}

/** The event ID is a stored primary key: capped and storable, or the delivery is a 400, not a 500. */
function checkEventId(eventId: string): void {
  const problem =
    eventId.length > MAX_TEXT_LENGTH
      ? `must be at most ${MAX_TEXT_LENGTH} characters`
      : unstorableReason(eventId);
  if (problem === undefined) return;
  throw new KitError('validation_failed', `The X-Event-Id header ${problem}`, {
    errors: [{ path: 'X-Event-Id', message: problem }],
  });
}

// The two possible answers, encoded once: every delivery gets one of them.
const RECEIVED = new TextEncoder().encode(JSON.stringify({ received: true }));
const DUPLICATE = new TextEncoder().encode(JSON.stringify({ received: true, duplicate: true }));

function acknowledgement(body: Uint8Array): MarketAnswer {
  return { status: 200, headers: { 'content-type': 'application/json' }, body };
}

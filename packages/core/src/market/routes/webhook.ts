/**
 * `POST /webhook` (WIRE §4): the router verifies the raw bytes and parses the event
 * (signed-webhook.ts) → one store transaction in which the event ID is recorded, the order status moves forward and the market's
 * `handleWebhook` runs. A failure anywhere in the transaction rolls all of it back and answers 500,
 * so the service delivers again; a duplicate event ID is acknowledged without running anything.
 */
import { KitError } from '../../errors.js';
import {
  EVENT_TYPES,
  isUnknownEvent,
  type KnownWebhookEvent,
  type WebhookEvent,
} from '../../models/events.js';
import {
  forwardSourcesOf,
  type OrderStatus,
  READINESS_STATUSES,
  type TransitionResult,
  transition,
} from '../../models/status.js';
import { recordWebhookOutcome } from '../../observability/metrics.js';
import { withSpan } from '../../observability/telemetry.js';
import type { MarketAnswer } from '../answer.js';
import { callHook, type RouteContext } from '../context.js';
import type { WebhookHookInput } from '../hooks.js';
import type { InputOf } from '../route-input.js';
import type { MarketTransaction, StoredOrder, WebhookEventEffect } from '../store.js';
import { retryUnavailable } from '../store-retry.js';

/** WIRE §3 R-STATE-08: readiness counts for an order APPROVED or DISBURSING once the event is applied. */
const READY_FROM = new Set<string>(READINESS_STATUSES);

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
    handle(new HookInput(eventId, event, state, result, readyForDisbursement, tx), hookContext),
  );
}

/**
 * The hook's input, with `order` passed through as the store gave it: a store that builds the
 * order on first read (`@bnpl-kit/store` does) builds it only if the hook reads it. `order` stays
 * an own enumerable property, in its place among the others (spread, `Object.keys` and JSON see
 * it), and can be assigned. Its accessor's two functions are shared by every input: a getter and
 * setter made per input (an object literal's) turn each input into a dictionary-mode object.
 */
class HookInput implements WebhookHookInput {
  declare eventId: string;
  declare event: KnownWebhookEvent;
  declare order: StoredOrder | undefined;
  declare transition: TransitionResult | undefined;
  declare readyForDisbursement: boolean;
  declare tx: MarketTransaction;
  #state: OrderState;
  #replaced: { order: StoredOrder | undefined } | undefined = undefined;

  constructor(
    eventId: string,
    event: KnownWebhookEvent,
    state: OrderState,
    transition: TransitionResult | undefined,
    readyForDisbursement: boolean,
    tx: MarketTransaction,
  ) {
    this.#state = state;
    this.eventId = eventId;
    this.event = event;
    Object.defineProperty(this, 'order', HookInput.#ORDER);
    this.transition = transition;
    this.readyForDisbursement = readyForDisbursement;
    this.tx = tx;
  }

  static readonly #ORDER: PropertyDescriptor = {
    get(this: HookInput) {
      return this.#replaced === undefined ? this.#state.order : this.#replaced.order;
    },
    set(this: HookInput, order: StoredOrder | undefined) {
      this.#replaced = { order };
    },
    enumerable: true,
    configurable: true,
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

/**
 * The route's function: the delivery arrives verified and decoded (signed-webhook.ts, run by the
 * router from the table's `webhook-signature`); this applies it and acknowledges.
 */
export async function webhook(
  { principal: { eventId }, body: event }: InputOf<'receiveWebhook'>,
  ctx: RouteContext,
): Promise<MarketAnswer> {
  try {
    // Safe to repeat: a lost connection rolled the effect back, and the event ID dedupes a retry.
    const outcome = await withSpan(
      'bnpl.webhook.apply',
      { 'bnpl.event_type': event.type, 'bnpl.event_id': eventId },
      () => retryUnavailable(() => apply(ctx, eventId, event)),
    );
    recordWebhookOutcome(outcome.duplicate ? 'duplicate' : 'processed', event.type);
    return acknowledgement(outcome.duplicate ? DUPLICATE : RECEIVED);
  } catch (error) {
    recordWebhookOutcome(KitError.fromUnknown(error).code, event.type);
    throw error;
  }
}

// The two possible answers, encoded once: every delivery gets one of them.
const RECEIVED = new TextEncoder().encode(JSON.stringify({ received: true }));
const DUPLICATE = new TextEncoder().encode(JSON.stringify({ received: true, duplicate: true }));

function acknowledgement(body: Uint8Array): MarketAnswer {
  return { status: 200, headers: { 'content-type': 'application/json' }, body };
}

/**
 * The order endpoints the market's own systems call (WIRE §5): create, status, cancel, disburse.
 * The local record follows the service: every answer from the service is reconciled into it with
 * the forward-only `transition`, inside a store transaction that locks the order row.
 */

import { canonicalJson } from '../../claims/canonical.js';
import { KitError } from '../../errors.js';
import {
  type Invoice,
  invoiceCodec,
  type OrderCreateRequest,
  orderActionResultCodec,
  orderCreateRequestCodec,
  orderRecordCodec,
  orderStatusInfoCodec,
} from '../../models/order.js';
import {
  ACTION_ALLOWED_FROM,
  assertStatusIn,
  knownOrderStatus,
  type OrderAction,
  type OrderStatus,
} from '../../models/status.js';
import { idempotencyKeys } from '../../service/idempotency.js';
import { markPrevalidated } from '../../service/prevalidated.js';
import type { ServiceOrder } from '../../service/types.js';
import { bodyDigestSyncOrAsync } from '../../signature/digest.js';
import { utf8 } from '../../util/base64url.js';
import type { MarketAnswer } from '../answer.js';
import { callHook, HookFailure, json, type RouteContext } from '../context.js';
import { followServiceStatus } from '../follow-service.js';
import { oneActionAtATime } from '../order-claims.js';
import type { InputOf } from '../route-input.js';
import type { StoredOrder } from '../store.js';
import { retryUnavailable } from '../store-retry.js';

/**
 * Same content → same fingerprint, whatever the key order or spacing of the request: SHA-256 of
 * the canonical JSON, base64url. Hashed natively and synchronously where the runtime can (as the
 * webhook body digest is): a Web Crypto digest per order was a thread hop and a tenth of the
 * route's JavaScript time.
 */
export async function requestFingerprint(order: OrderCreateRequest): Promise<string> {
  return fingerprintOf(orderCreateRequestCodec.encode(order));
}

/** The fingerprint of an order already encoded as wire JSON. */
function fingerprintOf(wire: Record<string, unknown>): Promise<string> | string {
  return bodyDigestSyncOrAsync(utf8(canonicalJson(wire)));
}

/**
 * The service's status read tolerantly (WIRE §6): a value outside the six moves nothing, is logged
 * once as a warning and is reported back as `service_status`; `status` stays the stored one.
 */
function unknownServiceStatus(ctx: RouteContext, remote: ServiceOrder): string | undefined {
  if (knownOrderStatus(remote.orderStatus) !== undefined) return undefined;
  ctx.deps.logger.warn(
    { requestId: ctx.requestId, orderId: remote.id, serviceStatus: remote.orderStatus },
    'the service reported an order status outside the six known ones; kept the stored status',
  );
  return remote.orderStatus;
}

function orderRecord(order: StoredOrder, serviceStatus?: string): Record<string, unknown> {
  return orderRecordCodec.encode({
    id: order.id,
    referenceId: order.referenceId,
    totalAmount: order.totalAmount,
    status: order.status,
    serviceStatus,
  });
}

function replayOrConflict(existing: StoredOrder, fingerprint: string): MarketAnswer {
  if (existing.requestFingerprint === fingerprint) return json(orderRecord(existing), 200);
  throw new KitError(
    'idempotency_conflict',
    `An order with reference_id ${JSON.stringify(existing.referenceId)} already exists with different content; use a new reference_id`,
    { extensions: { order_id: existing.id } },
  );
}

/**
 * A concurrent create of the same reference_id with other content passes the local check before
 * either row exists; the service then refuses the second one's Idempotency-Key (its 409). That is
 * this endpoint's `idempotency_conflict`, not a bare `conflict` its documents do not list.
 */
function sameReferenceConflict(error: unknown, referenceId: string): unknown {
  if (!(error instanceof KitError) || error.code !== 'conflict') return error;
  return new KitError(
    'idempotency_conflict',
    `An order with reference_id ${JSON.stringify(referenceId)} is being created with different content; use a new reference_id`,
    { cause: error },
  );
}

export async function createOrder(
  { body: order }: InputOf<'createOrder'>,
  ctx: RouteContext,
): Promise<MarketAnswer> {
  const { store, service } = ctx.deps;
  // Encoded once, for the fingerprint and as the body sent to the service.
  const wire = orderCreateRequestCodec.encode(order);
  const fingerprint = await fingerprintOf(wire);
  const existing = await retryUnavailable(() => store.findOrderByReferenceId(order.referenceId));
  if (existing) return replayOrConflict(existing, fingerprint);
  const created = await service
    .createOrder(
      // Validated above with the stricter market schema: the client need not check it again, nor
      // encode it again (the service's codec makes the same wire JSON of these three fields).
      markPrevalidated(
        { referenceId: order.referenceId, totalAmount: order.totalAmount, orderLines: order.orderLines },
        wire,
      ),
      // Two concurrent creates of one order get one service order; the service refuses the same key
      // with other content, which the local fingerprint check above already answers with 409.
      { idempotencyKey: idempotencyKeys.createOrder(order.referenceId) },
    )
    .catch((error: unknown) => {
      throw sameReferenceConflict(error, order.referenceId);
    });
  const serviceStatus = unknownServiceStatus(ctx, created);
  // The service now has the order: a lost connection here must not leave it without a local row.
  const inserted = await retryUnavailable(() =>
    store.insertOrder({
      id: created.id,
      referenceId: order.referenceId,
      totalAmount: order.totalAmount,
      orderLines: order.orderLines,
      // A new order whose status cannot be read is stored as not yet decided; webhooks move it on.
      status: knownOrderStatus(created.orderStatus) ?? 'PENDING',
      requestFingerprint: fingerprint,
    }),
  );
  if (!inserted.created) return replayOrConflict(inserted.order, fingerprint);
  return json(orderRecord(inserted.order, serviceStatus), 201);
}

/** Applies the service's view of an order to the local record; returns the record afterwards. */
async function reconcile(
  ctx: RouteContext,
  remote: ServiceOrder,
  source: string,
): Promise<StoredOrder | undefined> {
  return ctx.deps.store.transaction(async (tx) => {
    const followed = await followServiceStatus(tx, remote.id, remote.orderStatus, source);
    const result = followed.transition;
    if (result && !result.changed && result.reason === 'not_forward') {
      ctx.deps.logger.info(
        { requestId: ctx.requestId, orderId: remote.id, stored: result.from, service: remote.orderStatus },
        'service reports an older status than the stored one; kept the stored status',
      );
    }
    return followed.order;
  });
}

export async function getOrderStatus(
  { params: { id } }: InputOf<'getOrderStatus'>,
  ctx: RouteContext,
): Promise<MarketAnswer> {
  const remote = await ctx.deps.service.getOrder(id, { signal: ctx.request.signal });
  const local = await reconcile(ctx, remote, 'reconcile');
  return json(
    orderStatusInfoCodec.encode({
      id: remote.id,
      referenceId: remote.referenceId,
      status: local?.status ?? knownOrderStatus(remote.orderStatus) ?? 'PENDING',
      totalAmount: remote.totalAmount,
      updatedAt: (local?.updatedAt ?? new Date(ctx.deps.now())).toISOString(),
      serviceStatus: unknownServiceStatus(ctx, remote),
    }),
  );
}

async function loadOrder(
  ctx: RouteContext,
  id: string,
  allowed: readonly OrderStatus[],
  action: string,
): Promise<StoredOrder> {
  const order = await ctx.deps.store.findOrderById(id);
  if (!order) throw new KitError('order_not_found', `No order ${JSON.stringify(id)} is known to this market`);
  assertStatusIn(order.status, allowed, action);
  return order;
}

/**
 * Runs one action on an order, one action per order at a time (order-claims.ts): the status check,
 * the service call and the stored answer of a cancel and a disburse sent together do not
 * interleave, so only the first reaches the service and the other reads the moved status (409).
 * A refused or failed call stores nothing and leaves the order as it was (R-EP-07).
 */
function actOnClaimedOrder(
  ctx: RouteContext,
  id: string,
  allowed: readonly OrderStatus[],
  action: OrderAction,
  call: (order: StoredOrder) => Promise<ServiceOrder>,
): Promise<MarketAnswer> {
  return oneActionAtATime(ctx.deps.store, `order:${id}`, async () => {
    const order = await loadOrder(ctx, id, allowed, action);
    const remote = await call(order);
    return actionResult(ctx, order, await reconcile(ctx, remote, action), remote);
  });
}

function actionResult(
  ctx: RouteContext,
  order: StoredOrder,
  after: StoredOrder | undefined,
  remote: ServiceOrder,
): MarketAnswer {
  return json(
    orderActionResultCodec.encode({
      id: remote.id,
      status: after?.status ?? knownOrderStatus(remote.orderStatus) ?? order.status,
      serviceStatus: unknownServiceStatus(ctx, remote),
    }),
    202,
  );
}

/** The hook's invoice is market code: check it here so a bad one is a 500, not the caller's 400. */
function checkInvoice(value: unknown): Invoice | undefined {
  if (value === undefined) return undefined;
  const result = invoiceCodec.schema.safeParse(
    typeof value === 'object' && value !== null ? invoiceCodec.encode(value as Invoice) : value,
  );
  if (result.success) return result.data;
  throw new HookFailure(
    'getDisbursementInvoice',
    result.error,
    'Hook getDisbursementInvoice returned an invalid invoice',
  );
}

export async function cancelOrder(
  { params: { id } }: InputOf<'cancelOrder'>,
  ctx: RouteContext,
): Promise<MarketAnswer> {
  return actOnClaimedOrder(ctx, id, ACTION_ALLOWED_FROM.cancel, 'cancel', (order) =>
    ctx.deps.service.cancelOrder(order.id, { idempotencyKey: idempotencyKeys.revertOrder(order.id) }),
  );
}

export async function disburseOrder(
  { params: { id }, body }: InputOf<'disburseOrder'>,
  ctx: RouteContext,
): Promise<MarketAnswer> {
  const allowed = ACTION_ALLOWED_FROM.disburse;
  const requested = body?.invoice;
  const hook = ctx.deps.hooks.getDisbursementInvoice;
  // The hook is market code that may use the store itself: it runs before the order is locked.
  const order = requested === undefined && hook ? await loadOrder(ctx, id, allowed, 'disburse') : undefined;
  const invoice =
    requested ??
    (hook &&
      order &&
      checkInvoice(await callHook(ctx, 'getDisbursementInvoice', () => hook(order, ctx.hookContext))));
  // One key per order: whatever retries happen, the provider pays this order at most once.
  return actOnClaimedOrder(ctx, id, allowed, 'disburse', (order) =>
    ctx.deps.service.disburseOrder(order.id, invoice ? { invoice } : {}, {
      idempotencyKey: idempotencyKeys.disburseOrder(order.id),
    }),
  );
}

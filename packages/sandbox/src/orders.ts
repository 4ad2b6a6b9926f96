/**
 * Orders and the simulated provider that drives them (WIRE §3): approve, reject, confirm readiness,
 * mark paid, plus the effects of the market's revert and disburse calls. Every status change emits a
 * signed `BNPL_ORDER_STATUS_UPDATED` webhook; readiness may also (or instead) emit
 * `BNPL_DISBURSEMENT_REQUIREMENT_STATUS_UPDATED` with `is_fulfilled: true`.
 */

import { EVENT_TYPES, type Invoice, type OrderStatus } from '@bnpl-kit/core';
import { type CreateServiceOrderInput, encodeWebhookEvent, type ServiceOrder } from '@bnpl-kit/core/wire';
import type { Clock } from './clock.js';
import { ServiceFailure } from './http.js';
import type { Organization } from './organizations.js';
import {
  type Disbursement,
  type SandboxOrder,
  type SandboxState,
  serviceId,
  type Transaction,
} from './state.js';

export type ReadinessVia = 'status' | 'requirement' | 'both';

export interface OrderBehaviour {
  /** How readiness is announced: DISBURSING, the requirement event, or both (default). */
  readinessVia: ReadinessVia;
  /** The market's revert: straight to CANCELED (default), or CANCELING then CANCELED after `cancelSettleMs`. */
  cancelVia: 'direct' | 'canceling';
  cancelSettleMs: number;
  /** The market's disburse from APPROVED: straight to PAID (default), or DISBURSING then PAID. */
  disburseVia: 'direct' | 'disbursing';
}

export type Emit = (organizationId: string, payload: Record<string, unknown>) => void;
export type StatusListener = (order: SandboxOrder) => void;

function conflict(order: SandboxOrder, action: string): ServiceFailure {
  return new ServiceFailure(409, 'CONFLICT', `Cannot ${action} order ${order.id} in status ${order.status}`);
}

export function toServiceOrder(order: SandboxOrder): ServiceOrder {
  return {
    id: order.id,
    referenceId: order.referenceId,
    totalAmount: order.totalAmount,
    orderLines: order.orderLines,
    orderStatus: order.status,
  };
}

export class OrderBook {
  readonly #listeners: StatusListener[] = [];
  #nextTransaction = 1;

  constructor(
    private readonly state: SandboxState,
    private readonly clock: Clock,
    private readonly emit: Emit,
    private readonly behaviour: OrderBehaviour,
    private readonly later: (ms: number, callback: () => void) => void,
  ) {}

  /** Called after every status change (and on creation), e.g. by the "auto" scenario. */
  onStatus(listener: StatusListener): void {
    this.#listeners.push(listener);
  }

  create(organization: Organization, input: CreateServiceOrderInput): SandboxOrder {
    const existing = this.state.orderByReference(organization.id, input.referenceId);
    if (existing) {
      const same =
        JSON.stringify([existing.totalAmount, existing.orderLines]) ===
        JSON.stringify([input.totalAmount, input.orderLines]);
      if (same) return existing;
      throw new ServiceFailure(
        409,
        'CONFLICT',
        `An order with reference_id ${input.referenceId} already exists with other content`,
      );
    }
    const now = this.clock.now();
    const order: SandboxOrder = {
      id: serviceId('ord'),
      organizationId: organization.id,
      referenceId: input.referenceId,
      totalAmount: input.totalAmount,
      orderLines: input.orderLines,
      paymentRecipient: input.paymentRecipient ?? { type: 'ORGANIZATION', id: organization.id },
      status: 'PENDING',
      readyForDisbursement: false,
      credifyId: undefined,
      history: [{ status: 'PENDING', at: now }],
      createdAt: now,
      updatedAt: now,
    };
    this.state.orders.set(order.id, order);
    this.#notify(order);
    return order;
  }

  /** An order of `organization` (another organisation's order is as unknown as a missing one). */
  get(id: string, organization?: Organization): SandboxOrder {
    const order = this.state.orders.get(id);
    if (!order || (organization && order.organizationId !== organization.id)) {
      throw new ServiceFailure(404, 'NOT_FOUND', `No order ${id}`);
    }
    return order;
  }

  // ---- Provider actions --------------------------------------------------------------------------

  approve(id: string, options: { credifyId?: string; offerCode?: string } = {}): SandboxOrder {
    const order = this.get(id);
    if (order.status !== 'PENDING') throw conflict(order, 'approve');
    if (options.credifyId) order.credifyId = options.credifyId;
    this.#move(order, 'APPROVED');
    if (order.credifyId) {
      this.upsertTransaction({
        credifyId: order.credifyId,
        orderId: order.id,
        offerCode: options.offerCode ?? 'sandbox-pay-in-3',
        status: 'COMPLETED',
      });
    }
    return order;
  }

  reject(id: string): SandboxOrder {
    const order = this.get(id);
    if (order.status !== 'PENDING') throw conflict(order, 'reject');
    this.#move(order, 'CANCELED');
    return order;
  }

  confirmReadiness(id: string, via: ReadinessVia = this.behaviour.readinessVia): SandboxOrder {
    const order = this.get(id);
    const viaStatus = via !== 'requirement';
    if (order.status !== 'APPROVED' && !(order.status === 'DISBURSING' && !viaStatus)) {
      throw conflict(order, 'confirm readiness of');
    }
    order.readyForDisbursement = true;
    if (viaStatus) this.#move(order, 'DISBURSING');
    if (via !== 'status') {
      this.emit(
        order.organizationId,
        encodeWebhookEvent({
          type: EVENT_TYPES.disbursementRequirementUpdated,
          orderId: order.id,
          isFulfilled: true,
        }),
      );
    }
    if (!viaStatus) this.#notify(order);
    return order;
  }

  /** The provider paid the market: PAID, with a disbursement recorded if the market never asked for one. */
  markPaid(id: string): SandboxOrder {
    const order = this.get(id);
    if (order.status !== 'APPROVED' && order.status !== 'DISBURSING') throw conflict(order, 'mark paid');
    this.#recordDisbursement(order, 'provider', undefined, undefined);
    this.#move(order, 'PAID');
    return order;
  }

  // ---- Effects of the market's calls -------------------------------------------------------------

  revert(organization: Organization, id: string): SandboxOrder {
    const order = this.get(id, organization);
    if (order.status === 'CANCELING' || order.status === 'CANCELED') return order;
    if (order.status !== 'PENDING' && order.status !== 'APPROVED') throw conflict(order, 'revert');
    if (this.behaviour.cancelVia === 'direct') {
      this.#move(order, 'CANCELED');
      return order;
    }
    this.#move(order, 'CANCELING');
    this.later(this.behaviour.cancelSettleMs, () => {
      if (order.status === 'CANCELING') this.#move(order, 'CANCELED');
    });
    return order;
  }

  /** Pays once per order, however often it is called. */
  disburse(
    organization: Organization,
    id: string,
    invoice: Invoice | undefined,
    idempotencyKey?: string,
  ): SandboxOrder {
    const order = this.get(id, organization);
    if (order.status === 'PAID') return order;
    if (order.status !== 'APPROVED' && order.status !== 'DISBURSING') throw conflict(order, 'disburse');
    this.#recordDisbursement(order, 'api', invoice, idempotencyKey);
    if (order.status === 'APPROVED' && this.behaviour.disburseVia === 'disbursing')
      this.#move(order, 'DISBURSING');
    this.#move(order, 'PAID');
    return order;
  }

  // ---- Offer transactions ------------------------------------------------------------------------

  upsertTransaction(input: {
    id?: string;
    credifyId: string;
    orderId?: string | undefined;
    offerCode: string;
    status: string;
  }): Transaction {
    const id = input.id ?? `txn_${this.#nextTransaction++}`;
    const previous = this.state.transactions.get(id);
    const transaction: Transaction = {
      id,
      credifyId: input.credifyId,
      orderId: input.orderId ?? previous?.orderId,
      offerCode: input.offerCode,
      status: input.status,
      disputeStatus: previous?.disputeStatus,
      updatedAt: this.clock.now(),
    };
    this.state.transactions.set(id, transaction);
    this.#emitTransaction(transaction, EVENT_TYPES.offerTransactionStatusUpdated, transaction.status);
    return transaction;
  }

  completeDispute(id: string, status: string): Transaction {
    const transaction = this.state.transactions.get(id);
    if (!transaction) throw new ServiceFailure(404, 'NOT_FOUND', `No transaction ${id}`);
    transaction.disputeStatus = status;
    transaction.updatedAt = this.clock.now();
    this.#emitTransaction(transaction, EVENT_TYPES.disputeStatusUpdated, status);
    return transaction;
  }

  #emitTransaction(
    transaction: Transaction,
    type: typeof EVENT_TYPES.offerTransactionStatusUpdated | typeof EVENT_TYPES.disputeStatusUpdated,
    status: string,
  ): void {
    const organizationId =
      this.state.users.get(transaction.credifyId)?.organizationId ??
      (transaction.orderId ? this.state.orders.get(transaction.orderId)?.organizationId : undefined);
    if (!organizationId) return;
    this.emit(
      organizationId,
      encodeWebhookEvent({
        type,
        transactionId: transaction.id,
        credifyId: transaction.credifyId,
        transactionStatus: status,
        offerCode: transaction.offerCode,
      }),
    );
  }

  #recordDisbursement(
    order: SandboxOrder,
    source: Disbursement['source'],
    invoice: Invoice | undefined,
    idempotencyKey: string | undefined,
  ): void {
    if (this.state.disbursements.some((d) => d.orderId === order.id)) return;
    this.state.disbursements.push({
      id: `dsb_${this.state.disbursements.length + 1}`,
      orderId: order.id,
      organizationId: order.organizationId,
      amount: order.totalAmount,
      invoice,
      source,
      idempotencyKey,
      at: this.clock.now(),
    });
  }

  #move(order: SandboxOrder, status: OrderStatus): void {
    const now = this.clock.now();
    order.status = status;
    order.updatedAt = now;
    order.history.push({ status, at: now });
    this.emit(
      order.organizationId,
      encodeWebhookEvent({ type: EVENT_TYPES.orderStatusUpdated, orderId: order.id, orderStatus: status }),
    );
    this.#notify(order);
  }

  #notify(order: SandboxOrder): void {
    for (const listener of this.#listeners) listener(order);
  }
}

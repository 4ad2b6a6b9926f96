/** snake_case views of the sandbox's records for the admin API (every JSON body on the wire is snake_case). */

import type { Invoice } from '@bnpl-kit/core';
import { amountCodec, invoiceCodec, orderLineCodec } from '@bnpl-kit/core/wire';
import type { RecordedCall } from '../recorder.js';
import type { ClaimTokenRecord, Disbursement, SandboxOrder, ServiceUser, Transaction } from '../state.js';
import type { Delivery, DeliveryAttempt } from '../webhooks/types.js';

const iso = (ms: number | undefined) => (ms === undefined ? null : new Date(ms).toISOString());
const invoiceView = (invoice: Invoice | undefined) => (invoice ? invoiceCodec.encode(invoice) : null);
const snakeCase = (name: string) => name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);

/** The named fields under their snake_case wire names; an optional one that is missing is `null`. */
function snakeFields<T extends object>(
  record: T,
  names: readonly (keyof T & string)[],
): Record<string, unknown> {
  return Object.fromEntries(names.map((name) => [snakeCase(name), record[name] ?? null]));
}

export function orderView(order: SandboxOrder): Record<string, unknown> {
  return {
    id: order.id,
    organization_id: order.organizationId,
    reference_id: order.referenceId,
    order_status: order.status,
    ready_for_disbursement: order.readyForDisbursement,
    total_amount: amountCodec.encode(order.totalAmount),
    order_lines: order.orderLines.map((line) => orderLineCodec.encode(line)),
    payment_recipient: order.paymentRecipient,
    credify_id: order.credifyId ?? null,
    history: order.history.map((h) => ({ status: h.status, at: iso(h.at) })),
    created_at: iso(order.createdAt),
    updated_at: iso(order.updatedAt),
  };
}

export function userView(user: ServiceUser): Record<string, unknown> {
  const fields = snakeFields(user, ['credifyId', 'organizationId', 'localId', 'phoneNumber', 'countryCode']);
  return { ...fields, created_at: iso(user.createdAt) };
}

export function claimView(record: ClaimTokenRecord): Record<string, unknown> {
  return {
    ...snakeFields(record, ['scopeName', 'scopeHash', 'iat', 'token']),
    received_at: iso(record.receivedAt),
  };
}

export function transactionView(t: Transaction): Record<string, unknown> {
  return {
    ...snakeFields(t, ['id', 'credifyId', 'orderId', 'offerCode']),
    transaction_status: t.status,
    dispute_status: t.disputeStatus ?? null,
    updated_at: iso(t.updatedAt),
  };
}

export function disbursementView(d: Disbursement): Record<string, unknown> {
  return {
    ...snakeFields(d, ['id', 'orderId', 'organizationId']),
    amount: amountCodec.encode(d.amount),
    invoice: invoiceView(d.invoice),
    ...snakeFields(d, ['source', 'idempotencyKey']),
    at: iso(d.at),
  };
}

function attemptView(a: DeliveryAttempt): Record<string, unknown> {
  return {
    number: a.number,
    started_at: iso(a.startedAt),
    finished_at: iso(a.finishedAt),
    ...snakeFields(a, ['outcome', 'responseStatus', 'responseBody', 'error', 'requestHeaders']),
  };
}

export function deliveryView(d: Delivery): Record<string, unknown> {
  return {
    ...snakeFields(d, ['id', 'eventId', 'eventType', 'organizationId', 'url', 'status', 'body']),
    payload: JSON.parse(d.body) as unknown,
    created_at: iso(d.createdAt),
    next_attempt_at: iso(d.nextAttemptAt),
    ...snakeFields(d, ['duplicateOf', 'replayOf', 'verbatim', 'fault']),
    attempts: d.attempts.map(attemptView),
  };
}

export function callView(c: RecordedCall): Record<string, unknown> {
  return {
    id: c.id,
    at: iso(c.at),
    ...snakeFields(c, ['kind', 'operation', 'method', 'path', 'query', 'status', 'idempotencyKey']),
    ...snakeFields(c, ['hadApiKey', 'hadBearer', 'body', 'fault', 'responseBody']),
  };
}

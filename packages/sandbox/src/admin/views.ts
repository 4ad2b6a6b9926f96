/** snake_case views of the sandbox's records for the admin API (every JSON body on the wire is snake_case). */

import type { Invoice } from '@bnpl-kit/core';
import { amountCodec, invoiceCodec, orderLineCodec } from '@bnpl-kit/core/wire';
import type { RecordedCall } from '../recorder.js';
import type { ClaimTokenRecord, Disbursement, SandboxOrder, ServiceUser, Transaction } from '../state.js';
import type { Delivery, DeliveryAttempt } from '../webhooks/types.js';

const iso = (ms: number | undefined) => (ms === undefined ? null : new Date(ms).toISOString());
const invoiceView = (invoice: Invoice | undefined) => (invoice ? invoiceCodec.encode(invoice) : null);

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
  return {
    credify_id: user.credifyId,
    organization_id: user.organizationId,
    local_id: user.localId,
    phone_number: user.phoneNumber ?? null,
    country_code: user.countryCode ?? null,
    created_at: iso(user.createdAt),
  };
}

export function claimView(record: ClaimTokenRecord): Record<string, unknown> {
  return {
    scope_name: record.scopeName,
    scope_hash: record.scopeHash,
    iat: record.iat,
    token: record.token,
    received_at: iso(record.receivedAt),
  };
}

export function transactionView(t: Transaction): Record<string, unknown> {
  return {
    id: t.id,
    credify_id: t.credifyId,
    order_id: t.orderId ?? null,
    offer_code: t.offerCode,
    transaction_status: t.status,
    dispute_status: t.disputeStatus ?? null,
    updated_at: iso(t.updatedAt),
  };
}

export function disbursementView(d: Disbursement): Record<string, unknown> {
  return {
    id: d.id,
    order_id: d.orderId,
    organization_id: d.organizationId,
    amount: amountCodec.encode(d.amount),
    invoice: invoiceView(d.invoice),
    source: d.source,
    idempotency_key: d.idempotencyKey ?? null,
    at: iso(d.at),
  };
}

function attemptView(a: DeliveryAttempt): Record<string, unknown> {
  return {
    number: a.number,
    started_at: iso(a.startedAt),
    finished_at: iso(a.finishedAt),
    outcome: a.outcome ?? null,
    response_status: a.responseStatus ?? null,
    response_body: a.responseBody ?? null,
    error: a.error ?? null,
    request_headers: a.requestHeaders,
  };
}

export function deliveryView(d: Delivery): Record<string, unknown> {
  return {
    id: d.id,
    event_id: d.eventId,
    event_type: d.eventType,
    organization_id: d.organizationId,
    url: d.url,
    status: d.status,
    body: d.body,
    payload: JSON.parse(d.body) as unknown,
    created_at: iso(d.createdAt),
    next_attempt_at: iso(d.nextAttemptAt),
    duplicate_of: d.duplicateOf ?? null,
    replay_of: d.replayOf ?? null,
    verbatim: d.verbatim,
    fault: d.fault ?? null,
    attempts: d.attempts.map(attemptView),
  };
}

export function callView(c: RecordedCall): Record<string, unknown> {
  return {
    id: c.id,
    at: iso(c.at),
    kind: c.kind,
    operation: c.operation ?? null,
    method: c.method,
    path: c.path,
    query: c.query,
    status: c.status,
    idempotency_key: c.idempotencyKey ?? null,
    had_api_key: c.hadApiKey,
    had_bearer: c.hadBearer,
    body: c.body ?? null,
    fault: c.fault ?? null,
    response_body: c.responseBody ?? null,
  };
}

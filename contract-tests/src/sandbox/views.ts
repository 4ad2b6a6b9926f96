/**
 * The sandbox admin API's snake_case records, read into the driver's views. Lists the admin API
 * always answers are required (a sandbox that answers otherwise is not one the checks can trust);
 * lists inside a record (history, attempts) may be absent.
 */
import type { ClaimTokenView, DeliveryView, SandboxOrderView, ServiceCallView } from './driver.js';
import { type Json, SandboxRequestError } from './sandbox-client.js';

/** `answer[key]`, which the admin API always sends as a list of records. */
export function recordsIn(answer: Json, key: string): Json[] {
  const list = answer[key];
  if (!Array.isArray(list)) throw new SandboxRequestError(`The sandbox answered no "${key}" list`);
  return list as Json[];
}

function optionalRecords(value: unknown): Json[] {
  return Array.isArray(value) ? (value as Json[]) : [];
}

function optionalText(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

export function orderView(json: Json): SandboxOrderView {
  return {
    id: String(json.id),
    referenceId: String(json.reference_id),
    status: String(json.order_status),
    history: optionalRecords(json.history).map((h) => String(h.status)),
  };
}

export function deliveryView(json: Json): DeliveryView {
  return {
    id: String(json.id),
    eventId: String(json.event_id),
    eventType: String(json.event_type),
    url: String(json.url),
    status: String(json.status),
    body: String(json.body),
    payload: (json.payload ?? {}) as Record<string, unknown>,
    attempts: optionalRecords(json.attempts).map((a) => ({
      responseStatus: typeof a.response_status === 'number' ? a.response_status : null,
      responseBody: optionalText(a.response_body) ?? null,
      outcome: optionalText(a.outcome) ?? null,
    })),
  };
}

/** The market answered at least once (success or not); waiting longer would only see retries. */
export function answered(delivery: DeliveryView): boolean {
  return delivery.attempts.some((a) => a.outcome !== null);
}

/** The market acknowledged one of the attempts (2xx): it processed the event. */
export function acknowledged(delivery: DeliveryView): boolean {
  return delivery.attempts.some(
    (a) => a.responseStatus !== null && a.responseStatus >= 200 && a.responseStatus < 300,
  );
}

export function serviceCallView(c: Json): ServiceCallView {
  return {
    id: Number(c.id),
    at: Date.parse(String(c.at)),
    operation: String(c.operation),
    method: String(c.method),
    path: String(c.path),
    status: Number(c.status),
    idempotencyKey: optionalText(c.idempotency_key),
    body: optionalText(c.body),
    fault: optionalText(c.fault),
    responseBody: optionalText(c.response_body),
  };
}

export function claimTokenView(t: Json): ClaimTokenView {
  return { scopeName: String(t.scope_name), scopeHash: String(t.scope_hash), token: String(t.token) };
}

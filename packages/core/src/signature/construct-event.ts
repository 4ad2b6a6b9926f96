/**
 * `constructWebhookEvent`: verification and parsing in one call, like Stripe's `constructEvent`.
 * The body is parsed only after its signature verified, so nothing unverified is ever read.
 * Events the kit knows come back typed; any other `type` (or a status outside the six) comes back
 * as an `UnknownEvent` to acknowledge, never as an error (WIRE §6).
 */
import { parseWebhookEvent, type WebhookEvent } from '../models/events.js';
import {
  type VerifiedWebhook,
  type VerifyWebhookOptions,
  verifyWebhook,
  type WebhookRequest,
} from './verify.js';

export interface VerifiedWebhookEvent extends VerifiedWebhook {
  /** The parsed event; narrow it with `isUnknownEvent(event)` and then `event.type`. */
  event: WebhookEvent;
}

/**
 * Verifies a webhook and returns it with its parsed, typed event. Throws a
 * `WebhookVerificationError` when the signature does not verify, and a `KitError`
 * (`invalid_json` / `validation_failed`, both 400) when a verified body is not a valid event.
 */
export async function constructWebhookEvent(
  request: WebhookRequest,
  options: VerifyWebhookOptions,
): Promise<VerifiedWebhookEvent> {
  const verified = await verifyWebhook(request, options);
  return { ...verified, event: parseWebhookEvent(verified.body) };
}

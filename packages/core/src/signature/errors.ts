/**
 * The failures a webhook verification can end in. They are ordinary `KitError`s (so the market
 * handler maps them to 401/413 problem documents unchanged) with a narrower `code`, which lets
 * callers `switch` over exactly the cases verification can produce.
 */
import { KitError, type KitErrorOptions } from '../errors.js';

export type WebhookFailureCode =
  | 'signature_missing_header'
  | 'signature_malformed_header'
  | 'signature_unsupported_algorithm'
  | 'signature_invalid'
  | 'timestamp_out_of_window'
  | 'payload_not_raw'
  | 'payload_too_large';

export class WebhookVerificationError extends KitError {
  declare readonly code: WebhookFailureCode;

  constructor(code: WebhookFailureCode, message: string, options?: KitErrorOptions) {
    super(code, message, options);
    this.name = 'WebhookVerificationError';
  }
}

export function isWebhookVerificationError(error: unknown): error is WebhookVerificationError {
  return error instanceof WebhookVerificationError;
}

import { expect } from 'vitest';
import { type WebhookFailureCode, WebhookVerificationError } from '../../src/index.js';
import { kitErrorOf, signWebhook } from '../../src/testing.js';
import rfc8032 from '../fixtures/rfc8032.json' with { type: 'json' };
import vectors from '../fixtures/webhook-and-claims.json' with { type: 'json' };

export { rfc8032, vectors };

export const BACKENDS = ['node', 'webcrypto', 'noble'] as const;
export const URL = 'https://market.example.com/v1/webhook';
export const SIGNED_AT = '2026-11-21T10:00:00Z';
export const NOW = new Date('2026-11-21T10:00:30Z');
export const BODY = '{"type":"BNPL_ORDER_STATUS_UPDATED","order_id":"ord_01","order_status":"APPROVED"}';

export type WebhookCase = (typeof vectors.webhook_cases)[number];

export function hex(text: string): Uint8Array {
  return Uint8Array.from(Buffer.from(text, 'hex'));
}

export function caseRequest(c: WebhookCase) {
  return { url: c.webhook_url, headers: c.headers, body: Buffer.from(c.body_base64, 'base64') };
}

/** Maps an error code to the vector file's `reason` families. */
export function reasonOf(code: WebhookFailureCode): string {
  if (code === 'signature_invalid') return 'signature';
  if (code === 'timestamp_out_of_window') return 'timestamp';
  if (
    code === 'signature_missing_header' ||
    code === 'signature_malformed_header' ||
    code === 'signature_unsupported_algorithm'
  ) {
    return 'header';
  }
  return code;
}

/** The verification error a promise rejects with; fails the test if it resolves or throws something else. */
export async function rejection(promise: Promise<unknown>): Promise<WebhookVerificationError> {
  const error = await kitErrorOf(promise);
  expect(error).toBeInstanceOf(WebhookVerificationError);
  return error as WebhookVerificationError;
}

/** A webhook signed with the vector file's signing key, for tests that tweak one thing. */
export async function signedWebhook(
  overrides: { body?: string | Uint8Array; eventId?: string; timestamp?: string } = {},
) {
  const signed = await signWebhook({
    url: URL,
    body: overrides.body ?? BODY,
    signingKey: vectors.signing_key_pkcs8_pem,
    eventId: overrides.eventId ?? 'evt_test',
    timestamp: overrides.timestamp ?? SIGNED_AT,
  });
  return { ...signed, request: { url: URL, headers: signed.headers, body: signed.body } };
}

// The verification side of webhook signatures. Signing lives in `@bnpl-kit/core/testing` only.
export { RAW_BODY_HELP, type WebhookBody } from './body.js';
export { bodyDigestBackend, webhookBodyDigest } from './digest.js';
export { type Ed25519Backend, type Ed25519BackendChoice, hasWebCryptoEd25519 } from './ed25519.js';
export { isWebhookVerificationError, type WebhookFailureCode, WebhookVerificationError } from './errors.js';
export { readSignatureHeaders, type SignatureHeaders, type WebhookHeadersInput } from './headers.js';
export {
  createKeyring,
  isKeyring,
  Keyring,
  type KeyringOptions,
  type PublicKeyInput,
  type PublicKeysInput,
} from './keyring.js';
export {
  ALGORITHM_HEADER,
  DEFAULT_MAX_BODY_BYTES,
  DEFAULT_TOLERANCE_SECONDS,
  EVENT_ID_HEADER,
  EVENT_TIMESTAMP_HEADER,
  SIGNATURE_HEADER,
  WEBHOOK_ALGORITHM,
  type WebhookMessageParts,
  webhookMessage,
} from './message.js';
export { formatWebhookTimestamp, parseWebhookTimestamp } from './timestamp.js';
export {
  type VerifiedWebhook,
  type VerifyWebhookOptions,
  verifyWebhook,
  type WebhookRequest,
} from './verify.js';

/**
 * `@bnpl-kit/core`: what a market integrator uses. Every name here is a semver promise, so the list
 * is short and written out by hand (no `export *`); test/exports.test.ts pins it.
 *
 * Other tiers: `./wire` (codecs, the service route table, the router: for the sandbox and contract
 * tests), `./node` (the Node bridge), `./testing` (signing, fixtures, the memory store) and `./unstable-internals`
 * (what the adapters need; no compatibility promise).
 */

// Models.
export type { ClaimScopeHash } from './claims/all-scopes-hash.js';
export { buildClaimObject } from './claims/builder.js';
export type { BasicProfile, ClaimObject, CustomScopeData } from './claims/types.js';
// Errors: one class, one closed code union mapped to HTTP status.
export { type ErrorCode, type FieldIssue, isKitError, KitError } from './errors.js';
// The market: one fetch-style handler for every endpoint.
export { bearerAuth, bearerToken, tokensEqual } from './market/bearer-auth.js';
export { clientKeyFromForwardedFor, type ForwardedForOptions } from './market/client-key.js';
export { createMarket, type HandleOptions, type Market } from './market/create-market.js';
export type {
  FetchUserClaimObjectInput,
  HookContext,
  MarketHooks,
  Principal,
  UnknownEventHandler,
  WebhookHookInput,
} from './market/hooks.js';
export {
  type CreateMarketOptions,
  DEFAULT_LIMITS,
  DEFAULT_PATHS,
  type MarketConfig,
  type MarketLimits,
  type MarketPaths,
} from './market/options.js';
export type {
  AppliedWebhookEvent,
  MarketStore,
  MarketTransaction,
  NewStoredOrder,
  StatusChange,
  StoredOrder,
  WebhookEventEffect,
} from './market/store.js';
// Configuration.
export {
  BASIC_PROFILE_KEYS,
  type BasicProfileKey,
  INTEGRATION_MODES,
  type IntegrationMode,
  type KitConfig,
  type LoadConfigOptions,
  loadConfig,
} from './models/config.js';
export {
  type DisbursementRequirementUpdatedEvent,
  type DisputeStatusUpdatedEvent,
  EVENT_TYPES,
  isUnknownEvent,
  type KnownWebhookEvent,
  type OfferTransactionStatusUpdatedEvent,
  type OrderStatusUpdatedEvent,
  type UnknownEvent,
  type WebhookEvent,
} from './models/events.js';
export type { Amount } from './models/money.js';
export type { Invoice, OrderCreateRequest } from './models/order.js';
export type { OrderLine } from './models/order-line.js';
export { Secret } from './models/secret.js';
export { ORDER_STATUSES, type OrderStatus } from './models/status.js';
export { consoleLogger, type MarketLogger, silentLogger } from './observability/logger.js';
// Observability (OpenTelemetry API only: no-op until the app registers an SDK).
export { METRIC_NAMES } from './observability/metrics.js';
export {
  INSTRUMENTATION_NAME,
  instrumentsOf,
  kitMeter,
  traceFields,
  withSpan,
  withTraceIds,
} from './observability/telemetry.js';
// The BNPL service.
export { createServiceClient, type ServiceClientOptions } from './service/client.js';
export type { ServiceClient } from './service/types.js';
export { constructWebhookEvent, type VerifiedWebhookEvent } from './signature/construct-event.js';
// Webhook verification.
export {
  isWebhookVerificationError,
  type WebhookFailureCode,
  WebhookVerificationError,
} from './signature/errors.js';
export { createKeyring, Keyring, type KeyringOptions } from './signature/keyring.js';
export { type VerifiedWebhook, type VerifyWebhookOptions, verifyWebhook } from './signature/verify.js';
// The one backoff policy (service retries and the store's job retries).
export { type BackoffPolicy, backoffCeilingMs, backoffDelayMs } from './util/backoff.js';
export { parseBearerToken } from './util/bearer.js';

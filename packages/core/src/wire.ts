/**
 * `@bnpl-kit/core/wire`: the protocol itself, for code that speaks it from the other side or checks
 * it (the sandbox service, the contract tests, the CLI): wire codecs, the service route table shared
 * by the client and the sandbox, the router, problem documents, claim tokens and signature parts.
 * A market integrator should not need anything here; tools/repo-checks pins the list.
 */

// Claims and offer filtering (WIRE §7).
export {
  allScopesHash,
  allScopesHashInput,
  CLAIM_SCOPE_HASH_MODES,
  priorArtJson,
} from './claims/all-scopes-hash.js';
export { canonicalJson, scopeHash } from './claims/canonical.js';
export { commitmentKeyFor, isStandardScope } from './claims/names.js';
export {
  buildClaimTokens,
  type ClaimTokenPayload,
  signClaimToken,
  verifyClaimToken,
} from './claims/token.js';
export type { ClaimValue, ScopeClaims } from './claims/types.js';
// RFC 9457 problem documents and the error catalogue they point into (docs/errors.md).
export {
  ERROR_CATALOGUE,
  ERROR_CODES,
  ERROR_DOCS_URL,
  PROBLEM_CONTENT_TYPE,
  type ProblemDocument,
  problemResponse,
  problemTypeOf,
} from './errors.js';
// A JSON request body under a byte cap (415 / 413 / 400 problems), as the market endpoints read it.
export { readJsonBody } from './market/body.js';
// The one rule that moves a stored order to the service's status (jobs, reconciliation).
export { type FollowedServiceStatus, followServiceStatus } from './market/follow-service.js';
// The market's endpoints as one table (router, OpenAPI, README, certify's endpoint coverage).
export {
  MARKET_OPERATIONS,
  MARKET_ROUTES,
  type MarketOperation,
  type MarketRouteAuth,
  type MarketRouteDefinition,
  marketOperationsFor,
  marketRoutePath,
  servesRoute,
} from './market/route-table.js';
// The router the market endpoints and the sandbox's routes are served by.
export { type Method, type Route, type RouteMatch, Router } from './market/router.js';
// Codecs: snake_case wire <-> camelCase models, driven by the zod schemas.
export { encodeWebhookEvent, isUnknownEvent, parseWebhookEvent } from './models/events.js';
export { amountCodec } from './models/money.js';
export { dateTimeWithOffset, invoiceCodec, orderCreateRequestCodec } from './models/order.js';
export { orderLineCodec } from './models/order-line.js';
export {
  ACTION_ALLOWED_FROM,
  forwardSourcesOf,
  isFinalStatus,
  knownOrderStatus,
  OPEN_ORDER_STATUSES,
  ORDER_ACTIONS,
  type OrderAction,
  READINESS_STATUSES,
  type ServiceOrderStatus,
  type TransitionResult,
  transition,
} from './models/status.js';
export { unstorableReason } from './models/text.js';
export { field, issuesOf, parseWire, type WireCodec, type WireField, wireObject } from './models/wire.js';
export { LEAF_CONDITION_KINDS } from './offers/conditions.js';
export { filterOffers } from './offers/filter.js';
export { type FilterOffersResponse, filterOffersResponseSchema } from './offers/schemas.js';
// The service API: one route table for the client and the sandbox.
export { idempotencyKeys } from './service/idempotency.js';
export {
  API_KEY_HEADER,
  buildServicePath,
  CLAIM_PROVIDER_PERMISSION,
  type EnvelopeError,
  failureEnvelope,
  type HttpMethod,
  IDEMPOTENCY_KEY_HEADER,
  ORDER_SERVICE_OPERATIONS,
  READ_FILTERED_OFFERS_SCOPE,
  type RouteDefinition,
  SERVICE_OPERATIONS,
  SERVICE_ROUTES,
  type ServiceErrorCode,
  type ServiceOperation,
  successEnvelope,
} from './service/routes.js';
export type { SandboxRecord, SandboxRecordChange, SandboxRecordStore } from './service/sandbox-records.js';
export type {
  AvailabilityInput,
  AvailabilityResult,
  CreateServiceOrderInput,
  ServiceOrder,
  TokenIntrospection,
} from './service/types.js';

// Webhook signature parts (WIRE §4) and key encodings.
export { bodyDigestBackend, webhookBodyDigest } from './signature/digest.js';
export { parseSigningKey, seedToPkcs8Pem } from './signature/keys.js';
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
} from './signature/message.js';
export { WEBHOOK_ATTEMPT_TIMEOUT_MS, WEBHOOK_REDELIVERY_SCHEDULE_MS } from './signature/redelivery.js';
export { formatWebhookTimestamp, parseWebhookTimestamp } from './signature/timestamp.js';
export { base64UrlDecode, base64UrlEncode } from './util/base64url.js';

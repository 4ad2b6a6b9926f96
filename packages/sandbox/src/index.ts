export { type AutoScenario, autoScenarioJsonSchema } from './auto.js';
export { organizationPublicKey } from './claims.js';
export { type Clock, createManualClock, isManualClock, type ManualClock, systemClock } from './clock.js';
export type { Fault, FaultInput, RouteFault, WebhookFault } from './faults.js';
export { createSandboxFetch } from './fetch.js';
export { createSandboxHandlers, DEFAULT_SANDBOX_BASE_URL, type SandboxHandlersOptions } from './msw.js';
export { openApiDocuments, openApiText, sandboxAdminOpenApi } from './openapi.js';
export {
  DEFAULT_ENTITY_ID,
  DEFAULT_ORGANIZATION_ID,
  optionsFromConfig,
  type SandboxOptions,
  sandboxConfigSchema,
} from './options.js';
export type { OrderBehaviour, ReadinessVia } from './orders.js';
export {
  DEFAULT_OFFERS,
  generateApiKey,
  type Organization,
  type OrganizationInput,
} from './organizations.js';
export { PAGE_SESSION_HEADER } from './pages/index.js';
export {
  createPersistentSandbox,
  type PersistentSandbox,
  type PersistentSandboxOptions,
} from './persistence/persistent-sandbox.js';
export type { SandboxRecord, SandboxRecordChange, SandboxRecordStore } from './persistence/types.js';
export type { CallFilter, RecordedCall } from './recorder.js';
export { createSandbox, type HandleOptions, type Sandbox } from './sandbox.js';
export { type SandboxServer, type SandboxServerOptions, startSandboxServer } from './server.js';
export type {
  AccessTokenRecord,
  ClaimTokenRecord,
  Disbursement,
  Repayment,
  SandboxOrder,
  SandboxState,
  ServiceUser,
  Transaction,
} from './state.js';
export { DEFAULT_TOKEN_TTL_SECONDS } from './tokens.js';
export type { DeliveryFilter } from './webhooks/sender.js';
export {
  DEFAULT_ATTEMPT_TIMEOUT_MS,
  DEFAULT_RETRY_SCHEDULE_MS,
  type Delivery,
  type DeliveryAttempt,
  type DeliveryStatus,
  type WebhookSenderOptions,
} from './webhooks/types.js';

/**
 * `@bnpl-kit/sandbox`: the simulated BNPL service and provider as one fetch handler, in-process
 * (msw) or over HTTP. Named exports only; tools/repo-checks pins the list.
 */
export type { AutoScenario } from './auto.js';
export { type Clock, createManualClock, type ManualClock, systemClock } from './clock.js';
export type {
  CertificationCheck,
  CertificationOutcome,
  CertificationRequest,
  CertificationRunner,
} from './console/certification-runner.js';
export type { Fault, FaultInput, RouteFault, WebhookFault } from './faults.js';
export { createSandboxFetch, type SandboxFetchOptions } from './fetch.js';
export { adminExposure, isLoopbackHost } from './loopback.js';
export { createSandboxHandlers, DEFAULT_SANDBOX_BASE_URL, type SandboxHandlersOptions } from './msw.js';
export { openApiDocuments, openApiText, sandboxAdminOpenApi } from './openapi.js';
export {
  DEFAULT_ENTITY_ID,
  DEFAULT_ORGANIZATION_ID,
  optionsFromConfig,
  type SandboxOptions,
} from './options.js';
export type { OrderBehaviour, ReadinessVia } from './orders.js';
export {
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
export { createSandbox, type Sandbox } from './sandbox.js';
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
export type { DeliveryFilter } from './webhooks/sender.js';
export {
  DEFAULT_RETRY_SCHEDULE_MS,
  type Delivery,
  type DeliveryAttempt,
  type DeliveryStatus,
} from './webhooks/types.js';

export { API_REFERENCE_PATH, apiReferenceRoutes, OPENAPI_PATH } from './api-reference.js';
export { bearerToken, sameSecret } from './auth.js';
export {
  FRAMEWORK_NAMES,
  type FrameworkName,
  formatConfigProblems,
  loadServerConfig,
  type ServerConfig,
  type ServerDefaults,
} from './config.js';
export {
  DEFAULT_PROVIDING_BASIC_PROFILE,
  DEMO_USERS,
  type DemoUser,
  demoOffers,
  GOLD_POINTS,
} from './demo-data.js';
export { DEMO_USER_PATH, type DemoUserDeps, demoUsersBody } from './demo-user.js';
export { type EmbeddedSandbox, SANDBOX_MOUNT } from './embedded-sandbox.js';
export { type FrameworkStarter, loadFramework } from './frameworks.js';
export { basicHooks, claimsOfUser, dataSharingHooks, type HookDeps } from './hooks.js';
export { type DisbursementInvoiceSource, referenceInvoice } from './invoice.js';
export {
  ensureSandboxKeys,
  generateSigningKey,
  type KeyFile,
  publicKeyOf,
  type SandboxKeys,
} from './keys.js';
export { createLogger, REDACTED_PATHS } from './logger.js';
export { type RunOptions, runReferenceServer, sandboxBanner } from './main.js';
export { type ReferenceServer, type StartReferenceServerOptions, startReferenceServer } from './server.js';
export { startBanner, walkthroughScript } from './walkthrough.js';

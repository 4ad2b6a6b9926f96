/**
 * `@bnpl-kit/contract-tests`: the contract suite. Checks are data; `runContractSuite` runs them over
 * HTTP against any market URL with the sandbox playing the service, and reports in text, JSON or JUnit.
 */
export { type Certification, type CertificationOptions, startCertification } from './certification.js';
export { checksFor, contractChecks } from './checks/index.js';
export {
  advise,
  ensure,
  expect2xx,
  expectJsonObject,
  expectNoInternals,
  expectProblem,
  expectStatus,
  fail,
  type ProblemBody,
  type ProblemExpectation,
} from './expect.js';
export { ContractHttp, type HttpExchange, type HttpRequestInit } from './http.js';
export {
  formatJsonReport,
  formatJunitReport,
  formatReport,
  formatTextReport,
  groupBySpec,
  type ReportFormat,
  reportFormatFor,
  type TextReportOptions,
} from './reporters/index.js';
export { type ContractSuiteOptions, createCheckContext, runCheck, runContractSuite } from './runner.js';
export type {
  AvailabilityAnswer,
  ClaimTokenView,
  ContractSandbox,
  DeliveryView,
  RouteFaultSpec,
  SandboxOrderView,
  ServiceCallView,
  SignWebhookInput,
  WebhookFaultSpec,
} from './sandbox/driver.js';
export { createHttpSandbox, type HttpSandboxOptions } from './sandbox/http-sandbox.js';
export { findInternals } from './support/internals.js';
export { parseDemoUsers } from './support/users.js';
export { RECIPES as WEBHOOK_VECTOR_RECIPES, WEBHOOK_VECTORS, type WebhookVector } from './support/vectors.js';
export { type PollOptions, PollTimeout, pollUntil, waitForHttp } from './support/wait.js';
export {
  type CheckContext,
  type CheckResult,
  type CheckStatus,
  type ContractCheck,
  type ContractReport,
  DEFAULT_MARKET_PATHS,
  INTEGRATION_MODES,
  type IntegrationMode,
  type MarketPaths,
  type TestUser,
} from './types.js';
export {
  CheckSkipped,
  ContractViolation,
  isContractViolation,
  PrerequisiteFailed,
  type ViolationDetails,
} from './violation.js';

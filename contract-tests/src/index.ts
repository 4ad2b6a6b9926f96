/**
 * `@bnpl-kit/contract-tests`: the contract suite. Checks are data; `runContractSuite` runs them over
 * HTTP against any market URL with the sandbox playing the service, and reports in text, JSON or JUnit.
 */
export { type Certification, type CertificationOptions, startCertification } from './certification.js';
export { checksFor, contractChecks } from './checks/index.js';
export {
  type ModeSmokeOptions,
  modeSmokeChecks,
  ORDER_THROUGH_WEBHOOKS_CHECKS,
  RESTART_CHECK,
} from './checks/mode-smoke-checks.js';
export type { ExchangeRecord } from './exchange-record.js';
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
  formatHtmlReport,
  formatJsonReport,
  formatJunitReport,
  formatReport,
  formatTextReport,
  type HtmlReportOptions,
  PROTOCOL_DOC_URL,
  REPORT_CSS,
  type ReportFormat,
  renderReportSections,
  reportFormatFor,
  type TextReportOptions,
} from './reporters/index.js';
export { type ContractSuiteOptions, runContractSuite } from './runner.js';
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
export { waitForHttp } from './support/wait.js';
export type {
  CheckContext,
  CheckResult,
  CheckStatus,
  ContractCheck,
  ContractReport,
  MarketCapability,
  TestUser,
} from './types.js';
export { MARKET_CAPABILITIES } from './types.js';
export {
  CheckNotExercised,
  CheckSkipped,
  ContractViolation,
  isContractViolation,
  PrerequisiteFailed,
  type ViolationDetails,
} from './violation.js';

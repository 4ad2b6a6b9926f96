/**
 * @bnpl-kit/web: the framework-free web client SDK. `configure()` gives the specification's
 * operations (`bnpl.getBNPLAvailability`, `bnpl.presentModally`, `passport.showDetail`); the
 * hosted pages' side of the dialog protocol is `createPageBridge`.
 */
export {
  BNPL_PRODUCT_TYPE,
  type BnplAvailability,
  type BnplUser,
  type CredifyUserModel,
} from './availability.js';
export { type BnplEnv, type ConfigureOptions, DEFAULT_SERVICE_URLS, DEFAULT_TIMEOUT_MS } from './config.js';
export { BnplSdkError, type BnplSdkErrorCode, isBnplSdkError } from './errors.js';
export {
  createPageBridge,
  type PageBridge,
  type PageBridgeOptions,
  readPageBridgeParams,
} from './page-bridge.js';
export type {
  BnplCompletion,
  BnplCompletionStatus,
  FlowControl,
  OrderInfo,
  PresentModallyOptions,
  PushClaimTokensTask,
} from './present-modally.js';
export {
  BNPL_PAGE_PATH,
  bnplPageUrl,
  type FlowKind,
  type HostMessage,
  type HostMessages,
  PAGE_COMPLETION_STATUSES,
  PASSPORT_PAGE_PATH,
  type PageCompletionStatus,
  type PageMessage,
  type PageMessages,
  PROTOCOL_SOURCE,
  PROTOCOL_VERSION,
  parseHostMessage,
  parsePageMessage,
  passportPageUrl,
} from './protocol.js';
export { type BnplSdk, configure } from './sdk.js';
export type { ShowPassportOptions } from './show-passport.js';

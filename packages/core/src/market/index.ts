export { answerToResponse, type MarketAnswer, problemAnswer } from './answer.js';
export {
  ANSWER,
  type Answerer,
  answererOf,
  attachAnswerer,
  bodyNotRawHelp,
  type FastRequest,
  markBodyNotRaw,
  READ_BODY,
  READ_HEADER,
  readBodyDirectly,
  readHeader,
} from './body-hints.js';
export { createMarket, type HandleOptions, HookFailure, type Market } from './create-market.js';
export { kitErrorOfFramework } from './framework-error.js';
export type {
  FetchUserClaimObjectInput,
  HookContext,
  MarketHooks,
  Principal,
  UnknownEventHandler,
  WebhookHookInput,
} from './hooks.js';
export { consoleLogger, type MarketLogger, silentLogger } from './logger.js';
export { createMemoryStore, type MemoryStore, type MemoryStoreOptions } from './memory-store.js';
export {
  type CreateMarketOptions,
  DEFAULT_LIMITS,
  DEFAULT_PATHS,
  type MarketConfig,
  type MarketLimits,
  type MarketPaths,
} from './options.js';
export { pushClaimsRequestCodec } from './routes/claims.js';
export { requestFingerprint } from './routes/orders.js';
export type {
  AppliedWebhookEvent,
  MarketStore,
  MarketTransaction,
  NewStoredOrder,
  StatusChange,
  StoredOrder,
  WebhookEventEffect,
} from './store.js';

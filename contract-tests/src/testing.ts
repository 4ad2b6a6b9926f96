/**
 * `@bnpl-kit/contract-tests/testing`: markets to point the suite at in tests — a conforming in-memory
 * market built on `createMarket`, and deliberately broken ones each check must catch. Used by this
 * package's tests and the CLI's; not needed to certify a market.
 */
// The cross-language webhook and claim vectors (a checked copy of core's; test/vectors.test.ts).
export { default as webhookVectors } from './fixtures/webhook-and-claims.json' with { type: 'json' };
export {
  type BehaviourMarket,
  type BehaviourMarketSpec,
  createBehaviourMarket,
} from './testing/behaviour-market.js';
export { type BrokenMarket, brokenMarkets } from './testing/broken-markets/index.js';
export { movesOrdersBackwards } from './testing/broken-markets/moves-backwards.js';
export {
  HELD_CALL_TIMEOUT_MS,
  type HeldServiceCalls,
  type HeldServiceCallsRegister,
  heldServiceCalls,
  holdingSandbox,
} from './testing/held-service-calls.js';
export { fixtureUsers, type MarketUser, PROVIDING_BASIC_PROFILE } from './testing/market-users.js';
export {
  configFromEnv,
  createTestMarket,
  swappableMarket,
  type TestMarket,
  type TestMarketConfig,
} from './testing/test-market.js';

/**
 * `@bnpl-kit/core/unstable-internals`: what the framework adapters need beyond `./node`. No
 * compatibility promise: these names change with the market handler (cf. tRPC's
 * `unstable-core-do-not-import`). Do not import this from a market.
 */
export { bodyNotRawHelp, markBodyNotRaw } from './market/body-hints.js';

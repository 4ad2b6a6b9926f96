/**
 * `@bnpl-kit/core/unstable-internals`: what the framework adapters need beyond `./node`. No
 * compatibility promise: these names change with the market handler (cf. tRPC's
 * `unstable-core-do-not-import`). Do not import this from a market.
 */

// A framework's own error (a body parser's 413, a malformed URL) as the problem the market would answer.
export { answerToResponse, problemAnswer } from './market/answer.js';
// The raw-body hints, and the fast path reading a Node request's bytes and headers directly.
export {
  bodyNotRawHelp,
  markBodyNotRaw,
  READ_BODY,
  READ_CLIENT_ADDRESS,
  READ_HEADER,
} from './market/body-hints.js';
export { kitErrorOfFramework } from './market/framework-error.js';
// The Node request's bytes read directly, with the cap (for an adapter that holds the IncomingMessage,
// as Hono on @hono/node-server does). Imports nothing from Node at load time.
export { readNodeBody } from './node/read-body.js';

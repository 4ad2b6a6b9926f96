/**
 * `@bnpl-kit/core/node`: the one Node bridge (IncomingMessage → Request, Response →
 * ServerResponse). Express and Koa adapters are thin because of it; the rest of core stays free of
 * Node-only APIs.
 */

export { answerClientError } from './node/client-error.js';
export {
  type HardenServerOptions,
  hardenServer,
  RECOMMENDED_SERVER_LIMITS,
  type ServerLimits,
} from './node/harden-server.js';
export {
  createNodeListener,
  type FetchHandler,
  type HandlerLike,
  handleNodeRequest,
  type NodeHandlerOptions,
} from './node/listener.js';
export { sendAnswer, sendResponse } from './node/send-response.js';
export {
  bodyWasConsumed,
  type ConsumedBody,
  type ToRequestOptions,
  toRequest,
} from './node/to-request.js';

/**
 * @bnpl-kit/web/page: only what a hosted page needs (the bridge and the protocol), without the
 * SDK's dialog and service client, for pages that bundle it.
 */
export {
  createPageBridge,
  type PageBridge,
  type PageBridgeOptions,
  readPageBridgeParams,
} from './page-bridge.js';
export {
  createHostMessage,
  createPageMessage,
  type HostMessage,
  type HostMessages,
  PAGE_COMPLETION_STATUSES,
  type PageCompletionStatus,
  type PageMessage,
  type PageMessages,
  PROTOCOL_SOURCE,
  PROTOCOL_VERSION,
  parseHostMessage,
  parsePageMessage,
} from './protocol.js';

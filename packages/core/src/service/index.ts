export { createServiceClient, DEFAULT_SERVICE_TIMEOUT_MS, type ServiceClientOptions } from './client.js';
export { headerSafe, idempotencyKeys } from './idempotency.js';
export { backoffDelay, type RetryPolicy } from './retry.js';
export * from './routes.js';
export { TOKEN_REFRESH_MARGIN_MS } from './token-cache.js';
export type * from './types.js';

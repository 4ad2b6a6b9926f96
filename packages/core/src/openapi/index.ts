/**
 * `@bnpl-kit/core/openapi`: OpenAPI 3.1 documents of the market endpoints and the service API,
 * generated from the codecs (docs/openapi holds the committed copies; `pnpm openapi` regenerates).
 */
export { type MarketOpenApiOptions, marketOpenApi, OPENAPI_VERSION, openApiPath } from './market.js';
export { problemResponses, problemSchema } from './problem.js';
export { SchemaSet } from './schemas.js';
export { type ServiceOpenApiOptions, serviceOpenApi } from './service.js';
export type * from './types.js';

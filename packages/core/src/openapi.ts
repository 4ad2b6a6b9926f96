/**
 * `@bnpl-kit/core/openapi`: OpenAPI 3.1 documents of the market endpoints and the service API
 * (WIRE §5, §6), generated from the codecs (docs/openapi holds the committed copies; `pnpm openapi`
 * regenerates). For the sandbox, which serves and writes them, and the contract tests, which check
 * answers against them; test/exports.test.ts in tools/repo-checks pins the list.
 */
export {
  type MarketOpenApiOptions,
  marketOpenApi,
  OPENAPI_VERSION,
  openApiInfo,
  openApiPath,
} from './openapi/market.js';
export { problemResponses, problemSchema } from './openapi/problem.js';
export { SchemaSet } from './openapi/schemas.js';
export { type ServiceOpenApiOptions, serviceOpenApi } from './openapi/service.js';
export type {
  HttpVerb,
  JsonSchema,
  MediaType,
  OpenApiDocument,
  OperationObject,
  ParameterObject,
  PathItem,
  ResponseObject,
} from './openapi/types.js';

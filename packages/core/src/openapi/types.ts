/**
 * The slice of OpenAPI 3.1 the kit's documents use, typed loosely: the documents are data that a
 * linter checks (docs/openapi, `pnpm openapi:lint`), so only what the builders write is named here.
 */
export type JsonSchema = Record<string, unknown>;

export interface MediaType {
  schema: JsonSchema;
  example?: unknown;
}

export interface ResponseObject {
  description: string;
  headers?: Record<string, { description: string; schema: JsonSchema; required?: boolean }>;
  content?: Record<string, MediaType>;
}

export interface ParameterObject {
  name: string;
  in: 'path' | 'query' | 'header';
  required: boolean;
  description?: string;
  schema: JsonSchema;
}

export interface OperationObject {
  operationId: string;
  summary: string;
  description?: string;
  tags?: string[];
  security?: Record<string, string[]>[];
  parameters?: ParameterObject[];
  requestBody?: { required: boolean; description?: string; content: Record<string, MediaType> };
  responses: Record<string, ResponseObject>;
  /** The rules enforced beyond what the schemas say, by protocol rule ID (docs/protocol.md). */
  'x-bnpl-rules'?: { id: string; rule: string }[];
}

export type HttpVerb = 'get' | 'post' | 'put' | 'patch' | 'delete';
export type PathItem = Partial<Record<HttpVerb, OperationObject>>;

export interface OpenApiDocument {
  openapi: '3.1.0';
  info: {
    title: string;
    version: string;
    description: string;
    license: { name: string; identifier: string };
  };
  jsonSchemaDialect?: string;
  servers: { url: string; description: string }[];
  tags?: { name: string; description: string }[];
  paths: Record<string, PathItem>;
  webhooks?: Record<string, PathItem>;
  components: {
    schemas: Record<string, JsonSchema>;
    securitySchemes?: Record<string, Record<string, unknown>>;
  };
}

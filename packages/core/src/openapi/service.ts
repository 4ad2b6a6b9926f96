/**
 * The service API (WIRE §6) as the sandbox serves it, from the route table the client and the
 * sandbox share: each operation's request codec and the codec of the envelope's `data`.
 */
import * as z from 'zod';
import {
  API_KEY_HEADER,
  envelopeErrorSchema,
  IDEMPOTENCY_KEY_HEADER,
  type RouteDefinition,
  SERVICE_ROUTES,
  type ServiceOperation,
} from '../service/routes.js';
import { openApiInfo, openApiPath, rulesBeyondSchema } from './market.js';
import { problemResponses } from './problem.js';
import { SchemaSet } from './schemas.js';
import type { JsonSchema, OpenApiDocument, OperationObject, ParameterObject, PathItem } from './types.js';

const SUMMARIES: Record<ServiceOperation, string> = {
  token: 'Exchange the API key for an access token',
  createOrder: 'Create an order',
  getOrder: 'Read an order',
  revertOrder: 'Cancel (revert) an approved order',
  disburseOrder: 'Request disbursement',
  pushClaimTokens: 'Push claim tokens for a service user',
  getPublicKey: 'The webhook signing public key of an entity',
  introspectToken: 'Introspect an access token (RFC 7662)',
  checkAvailability: 'BNPL availability for a user (called by the web SDK)',
};

function pascal(name: string): string {
  return name.charAt(0).toUpperCase() + name.slice(1);
}

export interface ServiceOpenApiOptions {
  serverUrl?: string;
  version?: string;
}

export function serviceOpenApi(options: ServiceOpenApiOptions = {}): OpenApiDocument {
  const set = new SchemaSet();
  const failure = set.ref(
    'FailureEnvelope',
    z.object({ success: z.literal(false), errors: z.array(envelopeErrorSchema) }),
    'Every failure of the service API',
  );
  const paths: Record<string, PathItem> = {};
  for (const [operation, definition] of Object.entries(SERVICE_ROUTES) as [
    ServiceOperation,
    RouteDefinition,
  ][]) {
    const name = pascal(operation);
    const parameters: ParameterObject[] = [];
    for (const match of definition.path.matchAll(/:([a-z_]+)/g)) {
      parameters.push({
        name: match[1]!,
        in: 'path',
        required: true,
        schema: { type: 'string', minLength: 1 },
      });
    }
    for (const query of definition.query ?? []) {
      parameters.push({ name: query, in: 'query', required: true, schema: { type: 'string', minLength: 1 } });
    }
    if (!definition.idempotent && definition.auth === 'bearer') {
      parameters.push({
        name: IDEMPOTENCY_KEY_HEADER,
        in: 'header',
        required: false,
        description: 'Derived from the operation and order, so a retried call cannot act twice',
        schema: { type: 'string', minLength: 1 },
      });
    }
    const data: JsonSchema = set.ref(`${name}Data`, definition.response.schema);
    const rules = rulesBeyondSchema(definition.rules);
    const op: OperationObject = {
      operationId: operation,
      summary: SUMMARIES[operation],
      tags: [definition.path.includes('/orders') ? 'Orders' : 'Identity and claims'],
      security: [definition.auth === 'api-key' ? { apiKey: [] } : { bearer: [] }],
      ...(parameters.length > 0 && { parameters }),
      ...(definition.request && {
        requestBody: {
          required: true,
          content: { 'application/json': { schema: set.ref(`${name}Request`, definition.request.schema) } },
        },
      }),
      responses: {
        '200': {
          description: 'Success envelope',
          content: {
            'application/json': {
              schema: {
                type: 'object',
                properties: { success: { type: 'boolean', const: true }, data },
                required: ['success', 'data'],
              },
            },
          },
        },
        '400': { description: 'Validation failed', content: { 'application/json': { schema: failure } } },
        // The sandbox refuses a body over its limit before routing, as a problem, not an envelope.
        ...problemResponses(set, ['payload_too_large']),
        default: { description: 'Failure envelope', content: { 'application/json': { schema: failure } } },
      },
      ...(rules.length > 0 && {
        description: `Refused (400) beyond the schema unless: ${rules.map(({ id, rule }) => `${rule} [${id}]`).join('; ')}.`,
        'x-bnpl-rules': rules,
      }),
    };
    const path = openApiPath(definition.path);
    paths[path] = { ...paths[path], [definition.method.toLowerCase()]: op };
  }
  return {
    openapi: '3.1.0',
    info: openApiInfo(
      'BNPL service API (as the bnpl-kit sandbox serves it)',
      'The service operations a market calls, relative to SERVICE_API_URL, generated from the route table the kit’s client and sandbox share (WIRE §6). Every answer is an envelope.',
      options.version,
    ),
    servers: [{ url: options.serverUrl ?? '/', description: 'SERVICE_API_URL' }],
    tags: [
      { name: 'Orders', description: 'BNPL consumer orders' },
      { name: 'Identity and claims', description: 'Tokens, keys, claim tokens, availability' },
    ],
    paths,
    components: {
      schemas: set.components,
      securitySchemes: {
        apiKey: { type: 'apiKey', in: 'header', name: API_KEY_HEADER, description: 'APP_API_KEY' },
        bearer: { type: 'http', scheme: 'bearer', description: 'The access token from POST /v1/token' },
      },
    },
  };
}

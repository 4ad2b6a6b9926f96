/**
 * The sandbox admin API (`/sandbox/...`: the "dashboard" settings and the provider's buttons) as
 * an OpenAPI 3.1 document, generated from the admin route table and the request schemas its
 * handlers parse with, so a route cannot be added or renamed without the document following.
 * Answers are plain snake_case JSON views of the sandbox's records; their shapes are described in
 * packages/sandbox/README.md rather than schematised here.
 */

import type { ErrorCode } from '@bnpl-kit/core';
import {
  marketOpenApi,
  type OpenApiDocument,
  type OperationObject,
  openApiInfo,
  openApiPath,
  type PathItem,
  problemResponses,
  SchemaSet,
  serviceOpenApi,
} from '@bnpl-kit/core/openapi';
import { ADMIN_ANSWERS, ADMIN_REQUEST_SCHEMAS, ADMIN_ROUTES, adminSuccessStatus } from './admin/routes.js';

/**
 * What every admin route can answer (admin/handler.ts, and core's Node listener under the standalone
 * server): a wrong admin token (401), an admin API closed for want of one (403), another method on
 * the path (405), a body over the server's limit (413, checked before routing), a failure of its own
 * (500).
 */
const ADMIN_PROBLEMS: readonly ErrorCode[] = [
  'unauthenticated',
  'forbidden',
  'method_not_allowed',
  'payload_too_large',
  'internal',
];

/** Organisation bodies: the path's `id` replaces the body's (`parseOrganizationJson`), so it is not a member. */
const ID_FROM_PATH = new Set(['PUT /sandbox/organizations/:id', 'PATCH /sandbox/organizations/:id']);

function componentName(method: string, pattern: string): string {
  const words = `${method.toLowerCase()} ${pattern.replace(/^\/sandbox\//, '')}`
    .split(/[^A-Za-z0-9]+/)
    .filter((w) => w.length > 0);
  return words.map((w) => w.charAt(0).toUpperCase() + w.slice(1)).join('');
}

function requestSchema(set: SchemaSet, key: string, name: string) {
  const request = ADMIN_REQUEST_SCHEMAS[key];
  if (request === undefined) return undefined;
  if (!ID_FROM_PATH.has(key)) return set.ref(`${name}Request`, request);
  const schema = set.inline(request, `${name}Request`);
  const required = ((schema.required ?? []) as string[]).filter((member) => member !== 'id');
  const { id: _fromPath, ...properties } = (schema.properties ?? {}) as Record<string, unknown>;
  set.components[`${name}Request`] = { ...schema, properties, required };
  return { $ref: `#/components/schemas/${name}Request` };
}

export function sandboxAdminOpenApi(options: { serverUrl?: string; version?: string } = {}): OpenApiDocument {
  const set = new SchemaSet();
  const paths: Record<string, PathItem> = {};
  for (const [method, pattern] of ADMIN_ROUTES) {
    const name = componentName(method, pattern);
    const key = `${method} ${pattern}`;
    const request = requestSchema(set, key, name);
    const parameters = [...pattern.matchAll(/:([A-Za-z_]+)/g)].map((m) => ({
      name: m[1]!,
      in: 'path' as const,
      required: true,
      schema: { type: 'string', minLength: 1 },
    }));
    const status = String(adminSuccessStatus(key));
    const op: OperationObject = {
      operationId: name.charAt(0).toLowerCase() + name.slice(1),
      summary: key,
      tags: [pattern.split('/')[2] ?? 'sandbox'],
      // The token is asked for only when the sandbox was started with one (never when embedded).
      security: [{ adminToken: [] }, {}],
      ...(parameters.length > 0 && { parameters }),
      ...(request && {
        requestBody: {
          required: true,
          content: { 'application/json': { schema: request } },
        },
      }),
      responses: {
        [status]:
          status === '204'
            ? { description: 'Done' }
            : {
                description: 'A snake_case JSON view',
                content: { 'application/json': { schema: { type: 'object' } } },
              },
        ...problemResponses(set, [...ADMIN_PROBLEMS, ...(ADMIN_ANSWERS[key]?.problems ?? [])]),
      },
      ...(ADMIN_ANSWERS[key]?.rules && { 'x-bnpl-rules': [...ADMIN_ANSWERS[key].rules] }),
    };
    const path = openApiPath(pattern);
    paths[path] = { ...paths[path], [method.toLowerCase()]: op };
  }
  const tags = [...new Set(ADMIN_ROUTES.map(([, pattern]) => pattern.split('/')[2] ?? 'sandbox'))];
  return {
    openapi: '3.1.0',
    info: openApiInfo(
      'bnpl-kit sandbox admin API',
      'The simulated service’s dashboard and provider buttons over HTTP, generated from the admin route table. Failures are RFC 9457 problems (WIRE §2).',
      options.version,
    ),
    servers: [
      {
        url: options.serverUrl ?? '/',
        description: 'The sandbox (standalone, or mounted by a reference server)',
      },
    ],
    tags: tags.map((name) => ({ name, description: `/sandbox/${name}` })),
    paths,
    components: {
      schemas: set.components,
      securitySchemes: {
        adminToken: {
          type: 'http',
          scheme: 'bearer',
          description: 'Only when the sandbox was started with an admin token',
        },
      },
    },
  };
}

/**
 * Every committed document, by file name under docs/openapi: the market endpoints in both modes
 * (sandbox, so `GET /demo-user` is included), the service API as the sandbox serves it, and the
 * sandbox admin API. `pnpm openapi` writes them; a test fails when a committed copy is stale.
 */
export function openApiDocuments(): Record<string, OpenApiDocument> {
  return {
    'market-basic.json': marketOpenApi({ integrationMode: 'basic' }),
    'market-data-sharing.json': marketOpenApi({ integrationMode: 'data-sharing' }),
    'service.json': serviceOpenApi(),
    'sandbox-admin.json': sandboxAdminOpenApi(),
  };
}

/** The committed text of a document: two-space JSON and a final newline. */
export function openApiText(document: OpenApiDocument): string {
  return `${JSON.stringify(document, null, 2)}\n`;
}

/**
 * The sandbox admin API (`/sandbox/...`: the "dashboard" settings and the provider's buttons) as
 * an OpenAPI 3.1 document, generated from the admin route table and the request schemas its
 * handlers parse with, so a route cannot be added or renamed without the document following.
 * Answers are plain snake_case JSON views of the sandbox's records; their shapes are described in
 * packages/sandbox/README.md rather than schematised here.
 */
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
import { ADMIN_REQUEST_SCHEMAS, ADMIN_ROUTES } from './admin/routes.js';

function componentName(method: string, pattern: string): string {
  const words = `${method.toLowerCase()} ${pattern.replace(/^\/sandbox\//, '')}`
    .split(/[^A-Za-z0-9]+/)
    .filter((w) => w.length > 0);
  return words.map((w) => w.charAt(0).toUpperCase() + w.slice(1)).join('');
}

function statusOf(method: string, pattern: string): string {
  if (method === 'DELETE') return '204';
  return method === 'POST' && pattern === '/sandbox/faults' ? '201' : '200';
}

export function sandboxAdminOpenApi(options: { serverUrl?: string; version?: string } = {}): OpenApiDocument {
  const set = new SchemaSet();
  const paths: Record<string, PathItem> = {};
  for (const [method, pattern] of ADMIN_ROUTES) {
    const name = componentName(method, pattern);
    const key = `${method} ${pattern}`;
    const request = ADMIN_REQUEST_SCHEMAS[key];
    const parameters = [...pattern.matchAll(/:([A-Za-z_]+)/g)].map((m) => ({
      name: m[1]!,
      in: 'path' as const,
      required: true,
      schema: { type: 'string', minLength: 1 },
    }));
    const status = statusOf(method, pattern);
    const op: OperationObject = {
      operationId: name.charAt(0).toLowerCase() + name.slice(1),
      summary: key,
      tags: [pattern.split('/')[2] ?? 'sandbox'],
      security: [{ adminToken: [] }],
      ...(parameters.length > 0 && { parameters }),
      ...(request && {
        requestBody: {
          required: true,
          content: { 'application/json': { schema: set.ref(`${name}Request`, request) } },
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
        ...problemResponses(set, [400, 401, 404]),
      },
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

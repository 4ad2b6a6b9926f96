/**
 * The sandbox serves the OpenAPI documents of what it serves: the service API at `/openapi.json`
 * (relative to where the sandbox is mounted, so `SERVICE_API_URL/openapi.json`) and its admin API at
 * `/sandbox/openapi.json`. They describe routes, never data, so like the console's page they are
 * answered without the admin token. Generated on the first request (the module is loaded then):
 * building a document from the codecs is work a sandbox never asked for should not pay for.
 */
import { json } from './http.js';

export const SERVICE_OPENAPI_PATH = '/openapi.json';
export const ADMIN_OPENAPI_PATH = '/sandbox/openapi.json';

export const isOpenApiPath = (path: string) => path === SERVICE_OPENAPI_PATH || path === ADMIN_OPENAPI_PATH;

/** `path` is one of the two; `serverUrl` is where the sandbox is mounted, as the client reached it. */
export async function openApiResponse(path: string, serverUrl: string): Promise<Response> {
  const { sandboxAdminOpenApi } = await import('./openapi.js');
  const { serviceOpenApi } = await import('@bnpl-kit/core/openapi');
  return json(
    path === ADMIN_OPENAPI_PATH ? sandboxAdminOpenApi({ serverUrl }) : serviceOpenApi({ serverUrl }),
  );
}

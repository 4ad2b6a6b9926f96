/**
 * The sandbox's one fetch handler: strips the mount prefix, hands the request to the console, the
 * admin API (`/sandbox/...`), the hosted pages (`/pages/...`) or the service routes, and records
 * every call but the console's in one place.
 */

// One meaning of `HandleOptions` everywhere: `basePath`, the mount prefix stripped before routing.
import { bearerToken, type HandleOptions } from '@bnpl-kit/core';
import { problemResponse, type ServiceOperation } from '@bnpl-kit/core/wire';
import { handleAdminRoute, requireAdminAccess } from './admin/handler.js';
import type { Clock } from './clock.js';
import { certificationApiResponse, isCertificationApiPath } from './console/certification-api.js';
import type { CertificationRuns } from './console/certification-runs.js';
import { consoleResponse, isConsolePath } from './console/handler.js';
import { isOpenApiPath, openApiResponse } from './openapi-routes.js';
import { type HostedPages, isPagePath } from './pages/index.js';
import type { CallRecorder, RecordedCall } from './recorder.js';
import type { Sandbox } from './sandbox.js';
import { handleServiceRequest, type ServiceApiDeps } from './service-api.js';

export interface DispatchDeps {
  sandbox: Sandbox;
  pages: HostedPages;
  service: ServiceApiDeps;
  calls: CallRecorder;
  clock: Clock;
  admin: AdminAccess;
  /** The console's certification runs; absent without a runner. */
  certification: CertificationRuns | undefined;
}

/** Who may use the admin API: holders of `token`; nobody without one once `lockedBecause` is set. */
export interface AdminAccess {
  token: string | undefined;
  lockedBecause: string | undefined;
}

/** What one area answered, and how the call is recorded. */
interface Answer {
  response: Response;
  kind: RecordedCall['kind'];
  operation?: ServiceOperation;
  fault?: string;
}

function routedPath(pathname: string, basePath: string | undefined): string {
  const base = basePath?.replace(/\/+$/, '') ?? '';
  return base && pathname.startsWith(base) ? pathname.slice(base.length) || '/' : pathname;
}

async function route(deps: DispatchDeps, request: Request, path: string): Promise<Answer> {
  if (path === '/sandbox' || path.startsWith('/sandbox/')) {
    const adminOptions = { adminToken: deps.admin.token, lockedBecause: deps.admin.lockedBecause };
    if (isCertificationApiPath(path)) {
      const refused = await requireAdminAccess(adminOptions, request).then(
        () => undefined,
        (error: unknown) => problemResponse(error),
      );
      const response =
        refused ?? (await certificationApiResponse(deps.sandbox, deps.certification, request, path));
      return { kind: 'admin', response };
    }
    return { kind: 'admin', response: await handleAdminRoute(deps.sandbox, adminOptions, request, path) };
  }
  if (isPagePath(path)) return { kind: 'page', response: await deps.pages.handle(request, path) };
  return handleServiceRequest(deps.service, request, path);
}

/** The refusal's reason, so a certification report can show it next to the market's failure. */
async function refusalBody(answer: Answer): Promise<{ responseBody?: string }> {
  if (answer.kind !== 'service' || answer.response.status < 400) return {};
  return { responseBody: (await answer.response.clone().text()).slice(0, 1000) };
}

export function createDispatcher(deps: DispatchDeps): Sandbox['handle'] {
  return async (request: Request, options: HandleOptions = {}) => {
    const url = new URL(request.url);
    const path = routedPath(url.pathname, options.basePath);
    // The console page is a shell without data: it is served before the admin token check.
    if (isConsolePath(path)) return consoleResponse(request, path, { adminToken: deps.admin.token });
    if (request.method === 'GET' && isOpenApiPath(path)) {
      return openApiResponse(path, `${url.origin}${options.basePath?.replace(/\/+$/, '') ?? ''}`);
    }
    const body = request.body ? await request.clone().text() : undefined;
    const at = deps.clock.now();
    const answer = await route(deps, request, path);
    deps.calls.record({
      method: request.method,
      path,
      query: url.search,
      body,
      at,
      hadApiKey: request.headers.has('x-api-key'),
      hadBearer: bearerToken(request) !== undefined,
      idempotencyKey: request.headers.get('idempotency-key') ?? undefined,
      kind: answer.kind,
      operation: answer.operation,
      status: answer.response.status,
      fault: answer.fault,
      ...(await refusalBody(answer)),
    });
    return answer.response;
  };
}

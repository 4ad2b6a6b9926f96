/**
 * The admin API under `/sandbox/...`: the "dashboard" and the provider's buttons, over HTTP, so a
 * person with curl or a test in any language can drive the sandbox. Plain JSON in and out (snake_case),
 * failures as RFC 9457 problems. Optional `adminToken` guards it (`Authorization: Bearer <token>`).
 */
import { bearerToken, KitError, tokensEqual } from '@bnpl-kit/core';
import { problemResponse, Router } from '@bnpl-kit/core/wire';
import { autoScenarioView } from '../auto.js';
import { CONSOLE_PATH } from '../console/handler.js';
import { json, readJson, ServiceFailure } from '../http.js';
import { ADMIN_OPENAPI_PATH, SERVICE_OPENAPI_PATH } from '../openapi-routes.js';
import type { Sandbox } from '../sandbox.js';
import { ADMIN_ROUTES, type AdminHandler, type AdminRoute, adminSuccessStatus, orgJson } from './routes.js';
import { disbursementView, orderView, transactionView, userView } from './views.js';

async function index(sandbox: Sandbox): Promise<Response> {
  return json({
    entity_id: sandbox.entityId,
    webhook_public_key: await sandbox.publicKey(),
    retry_schedule_ms: sandbox.webhooks.schedule,
    endpoints: [
      ...ROUTES.map(([method, pattern]) => `${method} ${pattern}`),
      `GET ${CONSOLE_PATH}`,
      `GET ${ADMIN_OPENAPI_PATH}`,
      `GET ${SERVICE_OPENAPI_PATH}`,
    ],
    console: CONSOLE_PATH,
    openapi: { service: SERVICE_OPENAPI_PATH, admin: ADMIN_OPENAPI_PATH },
  });
}

async function stateView(sandbox: Sandbox): Promise<Response> {
  return json({
    entity_id: sandbox.entityId,
    webhook_public_key: await sandbox.publicKey(),
    organizations: await Promise.all(sandbox.organizations.list().map((o) => orgJson(sandbox, o.id))),
    users: sandbox.users.list().map(userView),
    orders: sandbox.orders.list().map(orderView),
    transactions: sandbox.transactions.list().map(transactionView),
    disbursements: sandbox.disbursements().map(disbursementView),
    deliveries: sandbox.webhooks.list().map((d) => ({
      id: d.id,
      event_type: d.eventType,
      url: d.url,
      status: d.status,
      attempts: d.attempts.length,
    })),
    faults: sandbox.faults.list(),
    auto: autoScenarioView(sandbox.auto.get()),
  });
}

const ROUTES: AdminRoute[] = [
  ['GET', '/sandbox', ({ sandbox }) => index(sandbox)],
  ['GET', '/sandbox/state', ({ sandbox }) => stateView(sandbox)],
  ...ADMIN_ROUTES,
];

const router = new Router<AdminHandler>(
  ROUTES.map(([method, path, handler]) => ({ name: `${method} ${path}`, method, path, handler })),
  '',
);

/** A handler's answer with the status its route declares (routes.ts `ADMIN_ANSWERS`). */
function withStatus(response: Response, status: number): Response {
  if (response.status === status) return response;
  return new Response(status === 204 ? null : response.body, { status, headers: response.headers });
}

/** ServiceFailures thrown by shared domain code become the matching problem documents. */
function toKitError(error: unknown): unknown {
  if (!(error instanceof ServiceFailure)) return error;
  if (error.status === 404) return new KitError('not_found', error.message);
  if (error.status === 409) return new KitError('invalid_transition', error.message);
  if (error.status === 400) return new KitError('validation_failed', error.message);
  return error;
}

/** Throws the problem a request without admin access gets; shared with the console's certification API. */
export async function requireAdminAccess(
  options: { adminToken: string | undefined; lockedBecause?: string | undefined },
  request: Request,
): Promise<void> {
  if (options.adminToken === undefined && options.lockedBecause !== undefined) {
    throw new KitError(
      'forbidden',
      `The sandbox admin API is closed: ${options.lockedBecause}. Start the sandbox with an admin ` +
        'token (--admin-token, admin_token in the config file) and send Authorization: Bearer <adminToken>.',
    );
  }
  if (options.adminToken !== undefined) {
    // Compared in constant time, as the market's own tokens are.
    const token = bearerToken(request);
    if (token === undefined || !(await tokensEqual(token, options.adminToken))) {
      throw new KitError('unauthenticated', 'The admin API needs Authorization: Bearer <adminToken>');
    }
  }
}

export async function handleAdminRoute(
  sandbox: Sandbox,
  options: { adminToken: string | undefined; lockedBecause?: string | undefined },
  request: Request,
  path: string,
): Promise<Response> {
  try {
    await requireAdminAccess(options, request);
    // `/sandbox/orders/` is `/sandbox/orders`, as it always was for the admin API.
    const match = router.match(request.method, path.replace(/\/+$/, '') || '/');
    if (match.kind === 'none')
      throw new KitError('not_found', `No admin route ${path}; GET /sandbox lists them`);
    if (match.kind === 'wrong_method') {
      return problemResponse(
        new KitError('method_not_allowed', `${request.method} is not allowed on ${path}`),
        {
          allow: match.allow.join(', '),
        },
      );
    }
    const body = async () => {
      const read = await readJson(request);
      if (!read.ok) throw new KitError('invalid_json', 'The body is not valid JSON');
      return read.value;
    };
    const url = new URL(request.url);
    const response = await match.route.handler({ sandbox, request, params: match.params, url, body });
    return withStatus(response, adminSuccessStatus(match.route.name));
  } catch (error) {
    return problemResponse(toKitError(error));
  }
}

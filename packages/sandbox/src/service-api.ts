/**
 * The service routes of WIRE §6, served from the shared route table: authentication (API key for the
 * token, expiring bearer tokens for the rest), request validation with the route's codec, the
 * Idempotency-Key of mutating calls, injected faults, and the `{ success, data | errors }` envelope.
 */

import type { Invoice } from '@bnpl-kit/core';
import {
  type AvailabilityInput,
  type CreateServiceOrderInput,
  IDEMPOTENCY_KEY_HEADER,
  issuesOf,
  type RouteDefinition,
  Router,
  SERVICE_OPERATIONS,
  SERVICE_ROUTES,
  type ServiceErrorCode,
  type ServiceOperation,
} from '@bnpl-kit/core/wire';
import { type AvailabilityDeps, checkAvailability, introspect } from './availability.js';
import { receiveClaimTokens } from './claims.js';
import type { FaultRegistry, RouteFault } from './faults.js';
import { envelopeResponse, failureResponse, json, readJson, ServiceFailure } from './http.js';
import { type OrderBook, toServiceOrder } from './orders.js';
import type { Organization } from './organizations.js';
import type { SandboxState } from './state.js';
import type { TokenIssuer } from './tokens.js';

export interface ServiceApiDeps extends AvailabilityDeps {
  state: SandboxState;
  tokens: TokenIssuer;
  orders: OrderBook;
  faults: FaultRegistry;
  entityId: string;
  webhookPublicKey: () => Promise<string>;
  /** Holds a "timeout" answer until the caller gives up, the sandbox closes, or `ms` pass. */
  hang: (request: Request, ms: number) => Promise<void>;
}

export interface ServiceAnswer {
  response: Response;
  /** `unknown`: no operation has this path (404), or not with this method (405). */
  kind: 'service' | 'unknown';
  operation?: ServiceOperation;
  fault?: string;
}

/** The shared route table served through core's router; each route's handler is its operation. */
const serviceRouter = new Router<ServiceOperation>(
  SERVICE_OPERATIONS.map((op) => ({
    name: op,
    method: SERVICE_ROUTES[op].method,
    path: SERVICE_ROUTES[op].path,
    handler: op,
  })),
  '',
);

/** How long an injected timeout holds the answer when nobody gives up first. */
export const INJECTED_TIMEOUT_HOLD_MS = 120_000;

async function parseBody(route: RouteDefinition, request: Request): Promise<unknown> {
  if (!route.request) return undefined;
  const read = await readJson(request);
  if (!read.ok) throw new ServiceFailure(400, 'VALIDATION_FAILED', 'The body is not valid JSON');
  const parsed = route.request.schema.safeParse(read.value);
  if (!parsed.success) {
    const issue = issuesOf(parsed.error)[0];
    throw new ServiceFailure(400, 'VALIDATION_FAILED', `${issue?.path || '(body)'}: ${issue?.message}`);
  }
  return parsed.data;
}

async function run(
  deps: ServiceApiDeps,
  operation: Exclude<ServiceOperation, 'token'>,
  organization: Organization,
  params: Record<string, string>,
  body: unknown,
  request: Request,
): Promise<unknown> {
  const key = request.headers.get(IDEMPOTENCY_KEY_HEADER) ?? undefined;
  switch (operation) {
    case 'createOrder':
      return toServiceOrder(deps.orders.create(organization, body as CreateServiceOrderInput));
    case 'getOrder':
      return toServiceOrder(deps.orders.get(params.id!, organization));
    case 'revertOrder':
      return toServiceOrder(deps.orders.revert(organization, params.id!));
    case 'disburseOrder':
      return toServiceOrder(
        deps.orders.disburse(organization, params.id!, (body as { invoice?: Invoice }).invoice, key),
      );
    case 'pushClaimTokens':
      await receiveClaimTokens(
        deps.state,
        deps.clock,
        organization,
        params.credify_id!,
        (body as { claimTokens: string[] }).claimTokens,
      );
      return {};
    case 'getPublicKey': {
      const entityId = new URL(request.url).searchParams.get('entity_id');
      if (!entityId)
        throw new ServiceFailure(400, 'VALIDATION_FAILED', 'entity_id: required query parameter');
      // The service signs the webhooks of every organisation with one key; it answers for itself and
      // for any organisation it knows, which is what a market asking with its own APP_ID expects.
      if (entityId !== deps.entityId && !deps.state.organizations.has(entityId)) {
        throw new ServiceFailure(404, 'NOT_FOUND', `No entity ${entityId}`);
      }
      return { signing: await deps.webhookPublicKey() };
    }
    case 'introspectToken': {
      const input = body as { token: string; scope: string };
      return introspect(deps, organization, input.token, input.scope);
    }
    case 'checkAvailability':
      return checkAvailability(deps, organization, body as AvailabilityInput);
  }
}

async function answer(
  deps: ServiceApiDeps,
  operation: ServiceOperation,
  params: Record<string, string>,
  request: Request,
): Promise<Response> {
  const route: RouteDefinition = SERVICE_ROUTES[operation];
  try {
    if (operation === 'token')
      return envelopeResponse(route.response.encode(deps.tokens.exchangeApiKey(request)));
    const organization = deps.tokens.authenticate(request);
    const body = await parseBody(route, request);
    const key = request.headers.get(IDEMPOTENCY_KEY_HEADER);
    const slot = !route.idempotent && key ? `${organization.id}|${operation}|${key}` : undefined;
    const fingerprint = JSON.stringify([params, route.request ? route.request.encode(body) : null]);
    const stored = slot ? deps.state.idempotency.get(slot) : undefined;
    if (stored) {
      if (stored.fingerprint !== fingerprint) {
        throw new ServiceFailure(
          409,
          'IDEMPOTENCY_CONFLICT',
          `Idempotency-Key ${key} was used for another request`,
        );
      }
      return new Response(stored.body, {
        status: stored.status,
        headers: { 'content-type': 'application/json', 'idempotent-replayed': 'true' },
      });
    }
    const data = await run(deps, operation, organization, params, body, request);
    const text = JSON.stringify({ success: true, data: route.response.encode(data) });
    if (slot) deps.state.idempotency.set(slot, { fingerprint, status: 200, body: text });
    return new Response(text, { status: 200, headers: { 'content-type': 'application/json' } });
  } catch (error) {
    if (error instanceof ServiceFailure) return failureResponse(error);
    return failureResponse(new ServiceFailure(500, 'INTERNAL', 'Internal error'));
  }
}

/** The envelope's code of an injected 4xx, as the service names its refusals. */
const REFUSAL_CODES: Partial<Record<number, ServiceErrorCode>> = {
  401: 'UNAUTHENTICATED',
  403: 'FORBIDDEN',
  404: 'NOT_FOUND',
  409: 'CONFLICT',
};

async function faultAnswer(deps: ServiceApiDeps, fault: RouteFault, request: Request): Promise<Response> {
  if (fault.action === 'timeout') {
    await deps.hang(request, INJECTED_TIMEOUT_HOLD_MS);
    return failureResponse(new ServiceFailure(504, 'INTERNAL', 'Injected timeout'));
  }
  if (fault.action === 'malformed') return json({ ok: true, note: 'Injected malformed answer' });
  if (fault.action === 'refused')
    return json({ success: false, errors: [{ code: 'VALIDATION_FAILED', message: 'Injected refusal' }] });
  // A 4xx is a refusal, whose reason a market may pass on (WIRE §6 R-SVC-09); a 5xx's text is the
  // service's internals, which it never may (certify looks for "Injected fault" in error bodies).
  if (fault.status < 500)
    return failureResponse(
      new ServiceFailure(
        fault.status,
        REFUSAL_CODES[fault.status] ?? 'VALIDATION_FAILED',
        'Injected refusal',
      ),
    );
  return failureResponse(new ServiceFailure(fault.status, 'INTERNAL', 'Injected fault'));
}

/** The operation's own answer with `data.order_status` replaced (a refusal stays as it was). */
async function withOrderStatus(real: Response, orderStatus: string): Promise<Response> {
  const body = (await real.json()) as { success?: boolean; data?: Record<string, unknown> };
  if (body.success !== true || typeof body.data !== 'object' || body.data === null)
    return json(body, real.status);
  return json({ ...body, data: { ...body.data, order_status: orderStatus } }, real.status);
}

async function handleOperation(
  deps: ServiceApiDeps,
  operation: ServiceOperation,
  params: Record<string, string>,
  request: Request,
): Promise<{ response: Response; fault?: string }> {
  const fault = deps.faults.takeRouteFault(operation, params.id);
  if (!fault) return { response: await answer(deps, operation, params, request) };
  if (fault.action === 'delay') {
    await deps.hang(request, fault.delayMs);
    return { response: await answer(deps, operation, params, request), fault: `${fault.action}:${fault.id}` };
  }
  if (fault.action === 'unknown_status') {
    const real = await answer(deps, operation, params, request);
    return { response: await withOrderStatus(real, fault.orderStatus), fault: `${fault.action}:${fault.id}` };
  }
  // `afterEffect`: the work happens, only the answer is lost.
  if (fault.afterEffect) await answer(deps, operation, params, request);
  return { response: await faultAnswer(deps, fault, request), fault: `${fault.action}:${fault.id}` };
}

/** Serves a request for a path outside `/sandbox` and `/pages`: a service operation, or its refusal. */
export async function handleServiceRequest(
  deps: ServiceApiDeps,
  request: Request,
  path: string,
): Promise<ServiceAnswer> {
  const match = serviceRouter.match(request.method, path);
  if (match.kind === 'none') return { kind: 'unknown', response: notFoundResponse(path) };
  if (match.kind === 'wrong_method') {
    return { kind: 'unknown', response: methodNotAllowedResponse(request.method, path, match.allow) };
  }
  const operation = match.route.handler;
  return { kind: 'service', operation, ...(await handleOperation(deps, operation, match.params, request)) };
}

function notFoundResponse(path: string): Response {
  return json({ success: false, errors: [{ code: 'NOT_FOUND', message: `No route ${path}` }] }, 404);
}

function methodNotAllowedResponse(method: string, path: string, allow: readonly string[]): Response {
  return json(
    {
      success: false,
      errors: [{ code: 'METHOD_NOT_ALLOWED', message: `${method} is not allowed on ${path}` }],
    },
    405,
    { allow: allow.join(', ') },
  );
}

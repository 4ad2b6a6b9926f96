/**
 * The market's endpoints (WIRE §5) as one executable table, as `SERVICE_ROUTES` is the service's:
 * method, path, the modes that serve it, who authenticates, the request codecs (path parameters and
 * body), the answers and the problems it can answer, and the protocol rules it enforces.
 * `createMarket` runs it: it authenticates and decodes from the entry and hands the handler typed
 * input, and refuses an answer the entry does not declare (route-guard.ts). Both OpenAPI documents
 * and the README's endpoint table are derived from it too; tests fail when one of them has a route
 * the table does not.
 */
import * as z from 'zod';
import type { ErrorCode } from '../errors.js';
import type { IntegrationMode } from '../models/config.js';
import {
  disburseRequestCodec,
  orderActionResultCodec,
  orderCreateRequestSchema,
  orderRecordCodec,
  orderStatusInfoCodec,
} from '../models/order.js';
import { MAX_TEXT_LENGTH, safeText } from '../models/text.js';
import { filterOffersRequestSchema, filterOffersResponseSchema } from '../offers/schemas.js';
import type { MarketPaths } from './options.js';
import { pushClaimsRequestCodec } from './routes/claims.js';

/**
 * Who authenticates a call: the market's own systems (`authenticateInternalAPIClient`), the signed-in
 * user (`authenticateInternalUser`), the service with a token the market introspects, the service
 * with a webhook signature, or nobody.
 */
export type MarketRouteAuth =
  | 'market-systems'
  | 'user-session'
  | 'service-token'
  | 'webhook-signature'
  | 'none';

/** A named JSON schema (its OpenAPI component name) with what it means here. */
export interface MarketBody<S extends z.ZodType = z.ZodType> {
  readonly name: string;
  readonly schema: S;
  readonly description?: string;
}

/** A request body: decoded by the router with the one strict JSON decoder, then `schema`. */
export interface MarketRequestBody<S extends z.ZodType = z.ZodType> extends MarketBody<S> {
  readonly required: boolean;
}

/** A path parameter: what it is, and the schema the router checks it with (a 400 otherwise). */
export interface MarketParam {
  readonly description: string;
  readonly schema: z.ZodType<string, string>;
}

export interface MarketAnswerSpec {
  readonly description: string;
  /** The JSON body; none for a redirect. */
  readonly body?: MarketBody;
  /** `Location` of a redirect. */
  readonly location?: string;
}

export interface MarketRouteDefinition {
  readonly method: 'GET' | 'POST';
  /** Under `paths.prefix`; a `MarketPaths` key when the market may move the endpoint. */
  readonly path: `/${string}` | { readonly configurable: Exclude<keyof MarketPaths, 'prefix'> };
  /** The integration modes that serve it; `sandboxOnly` routes answer 404 in production. */
  readonly modes: readonly IntegrationMode[];
  readonly sandboxOnly?: boolean;
  readonly auth: MarketRouteAuth;
  readonly summary: string;
  readonly description?: string;
  readonly tag: 'Orders' | 'Claims' | 'Webhooks' | 'Sandbox';
  /** Path parameters: what they are and their schema. */
  readonly params?: Readonly<Record<string, MarketParam>>;
  /**
   * The JSON body. A POST without one still reads a body that is sent (JSON within the limit, then
   * ignored); a `webhook-signature` route's body is the signed event (models/events.ts).
   */
  readonly request?: MarketRequestBody;
  /** Success answers by status: the only success statuses the route may answer. */
  readonly answers: Readonly<Record<number, MarketAnswerSpec>>;
  /**
   * The problems (errors.ts codes, each with the status errors.ts gives it) this endpoint answers
   * besides `internal`: the only ones it may answer.
   */
  readonly problems: readonly ErrorCode[];
  /** The rule IDs of docs/protocol.md this endpoint enforces. */
  readonly rules: readonly string[];
}

const BOTH: readonly IntegrationMode[] = ['basic', 'data-sharing'];
const DATA_SHARING: readonly IntegrationMode[] = ['data-sharing'];

const JSON_BODY: readonly ErrorCode[] = [
  'validation_failed',
  'invalid_json',
  'unsupported_media_type',
  'payload_too_large',
];
const UPSTREAM: readonly ErrorCode[] = ['upstream_rejected', 'upstream_unavailable', 'upstream_timeout'];
const STORE: readonly ErrorCode[] = ['store_unavailable'];
/** The rule every path ID is held to today: stored and looked up like a body ID. */
const pathId = safeText(MAX_TEXT_LENGTH);
const SERVICE_ORDER_ID = { id: { description: 'The service-side order ID', schema: pathId } };
/** Every market-system endpoint refuses a request without valid credentials. */
const MARKET_SYSTEMS_RULES = ['R-EP-21', 'R-ERR-05'] as const;
const JSON_BODY_RULES = ['R-ERR-04', 'R-ERR-09', 'R-ERR-10'] as const;

const orderRecord: MarketBody = {
  name: 'OrderRecord',
  schema: orderRecordCodec.schema,
  description: 'totalAmount is camelCase on the wire (specification)',
};
const actionResult: MarketBody = { name: 'OrderActionResult', schema: orderActionResultCodec.schema };

export const webhookAckSchema = z.object({
  received: z.literal(true),
  duplicate: z.literal(true).optional().meta({ description: 'The X-Event-Id was processed before' }),
});

const demoUserSchema = z.looseObject({
  id: z.string().min(1),
  session_token: z.string().optional().meta({ description: 'Send as Authorization: Bearer to /push-claims' }),
  claims: z.record(z.string(), z.record(z.string(), z.unknown())).optional(),
  users: z.array(z.looseObject({ id: z.string().min(1) })).optional(),
});

const pushClaimsResponseSchema = z.object({ credify_id: z.string().min(1) });

/** Keeps the entry's literal types (its body schema, its parameters): the handler's input is typed by them. */
function route<const D extends MarketRouteDefinition>(definition: D): D {
  return definition;
}

/**
 * An action on an approved order (cancel, disburse): data-sharing only, called by the market's
 * systems with the service-side order ID, accepted with 202 and the action's result. What differs
 * is the path, the words, and whether it takes a body (one that is sent is JSON either way).
 */
function orderAction<const R extends MarketRequestBody | undefined = undefined>(
  action: Pick<MarketRouteDefinition, 'summary' | 'description' | 'rules'> & {
    path: `/${string}`;
    request?: R;
  },
) {
  return route({
    method: 'POST',
    path: action.path,
    modes: DATA_SHARING,
    auth: 'market-systems',
    summary: action.summary,
    ...(action.description !== undefined && { description: action.description }),
    tag: 'Orders',
    params: SERVICE_ORDER_ID,
    request: action.request as R,
    answers: { 202: { description: 'Accepted', body: actionResult } },
    problems: [
      ...JSON_BODY,
      'unauthenticated',
      'order_not_found',
      'invalid_transition',
      // The service refused the action in the order's state there (its 409, service/errors.ts).
      'conflict',
      ...UPSTREAM,
      ...STORE,
    ],
    rules: [...action.rules, ...MARKET_SYSTEMS_RULES, ...JSON_BODY_RULES],
  });
}

/** Keyed by operation: the router's route name and the OpenAPI `operationId`. */
export const MARKET_ROUTES = {
  createOrder: route({
    method: 'POST',
    path: '/orders',
    modes: BOTH,
    auth: 'market-systems',
    summary: 'Create an order',
    description:
      'Same reference_id with the same content answers 200 with the existing order; different content 409.',
    tag: 'Orders',
    // The schema with the cross-field rules (R-ORDER-01, R-ORDER-02, a total > 0): the router runs it.
    request: { name: 'OrderCreateRequest', schema: orderCreateRequestSchema, required: true },
    answers: {
      201: { description: 'Created', body: orderRecord },
      200: { description: 'The existing order of this reference_id (same content)', body: orderRecord },
    },
    problems: [...JSON_BODY, 'unauthenticated', 'idempotency_conflict', ...UPSTREAM, ...STORE],
    rules: [
      'R-EP-01',
      'R-EP-02',
      'R-EP-03',
      'R-ORDER-01',
      'R-ORDER-02',
      'R-ORDER-03',
      'R-LINE-01',
      'R-LINE-03',
      'R-LINE-04',
      'R-LINE-05',
      'R-LINE-06',
      'R-LINE-07',
      'R-MONEY-01',
      ...MARKET_SYSTEMS_RULES,
      ...JSON_BODY_RULES,
    ],
  }),
  getOrderStatus: route({
    method: 'GET',
    path: '/orders/service/:id',
    modes: BOTH,
    auth: 'market-systems',
    summary: 'Order status, reconciled forward with the service',
    tag: 'Orders',
    params: SERVICE_ORDER_ID,
    answers: {
      200: {
        description: 'The stored record after reconciling',
        body: { name: 'OrderStatusInfo', schema: orderStatusInfoCodec.schema },
      },
    },
    problems: ['validation_failed', 'unauthenticated', 'order_not_found', ...UPSTREAM, ...STORE],
    rules: ['R-EP-04', 'R-EP-05', 'R-STATE-02', 'R-LINE-07', ...MARKET_SYSTEMS_RULES],
  }),
  cancelOrder: orderAction({
    path: '/orders/:id/cancel',
    summary: 'Cancel (revert) an approved order',
    rules: ['R-EP-06', 'R-EP-07', 'R-LINE-07'],
  }),
  disburseOrder: orderAction({
    path: '/orders/:id/disburse',
    summary: 'Request disbursement of an approved order',
    description: 'Without an invoice in the body, the getDisbursementInvoice hook supplies one (WIRE §5).',
    request: { name: 'DisburseRequest', schema: disburseRequestCodec.schema, required: false },
    rules: ['R-EP-08', 'R-EP-09', 'R-EP-10', 'R-EP-11', 'R-LINE-07'],
  }),
  pushClaims: route({
    method: 'POST',
    path: '/push-claims',
    modes: DATA_SHARING,
    auth: 'user-session',
    summary: 'Push the signed-in user’s claim tokens to the service',
    tag: 'Claims',
    request: { name: 'PushClaimsRequest', schema: pushClaimsRequestCodec.schema, required: true },
    answers: {
      200: { description: 'Pushed', body: { name: 'PushClaimsResponse', schema: pushClaimsResponseSchema } },
    },
    problems: [
      ...JSON_BODY,
      'unauthenticated',
      'forbidden',
      'user_not_found',
      // The service refused the tokens in the user's current state there (its 409).
      'conflict',
      ...UPSTREAM,
      ...STORE,
    ],
    rules: [
      'R-EP-12',
      'R-EP-13',
      'R-CLAIM-01',
      'R-CLAIM-03',
      'R-ERR-05',
      'R-ERR-06',
      'R-LINE-07',
      'R-CLAIM-09',
      ...JSON_BODY_RULES,
    ],
  }),
  filterOffers: route({
    method: 'POST',
    path: { configurable: 'offerFilter' },
    modes: DATA_SHARING,
    auth: 'service-token',
    summary: 'Offer filtering, called by the service',
    tag: 'Claims',
    request: { name: 'FilterOffersRequest', schema: filterOffersRequestSchema, required: true },
    answers: {
      200: {
        description: 'Offers with rank > 0',
        body: { name: 'FilterOffersResponse', schema: filterOffersResponseSchema },
      },
    },
    // user_not_found: fetchUserClaimObject knows no user of the local_id or credify_id sent.
    problems: [...JSON_BODY, 'unauthenticated', 'user_not_found', 'too_many_requests', ...UPSTREAM],
    rules: [
      'R-EP-15',
      'R-EP-16',
      'R-OFFER-01',
      'R-OFFER-02',
      'R-ERR-05',
      'R-OFFER-07',
      'R-OFFER-10',
      ...JSON_BODY_RULES,
    ],
  }),
  receiveWebhook: route({
    method: 'POST',
    path: { configurable: 'webhook' },
    modes: BOTH,
    auth: 'webhook-signature',
    summary: 'Webhook receiver (service → market)',
    description:
      'Signed as WIRE §4 says; the events are listed under webhooks. The Content-Type is not checked (no 415): the signature covers the body bytes, read as strict UTF-8 JSON whatever the header says.',
    tag: 'Webhooks',
    answers: {
      200: {
        description: 'Acknowledged (also for an unknown type or status, WIRE §4, §6)',
        body: { name: 'WebhookAck', schema: webhookAckSchema },
      },
    },
    problems: [
      'validation_failed',
      'invalid_json',
      'payload_too_large',
      'signature_missing_header',
      'signature_malformed_header',
      'signature_unsupported_algorithm',
      'signature_invalid',
      'timestamp_out_of_window',
      'payload_not_raw',
      'misconfigured',
      // The service's signing key is fetched from the service when APP_ID is set and none is cached:
      // a service that cannot be reached is its 502/503/504 (the service redelivers).
      ...UPSTREAM,
      ...STORE,
    ],
    rules: [
      'R-WH-01',
      'R-WH-02',
      'R-WH-03',
      'R-WH-04',
      'R-WH-06',
      'R-WH-07',
      'R-WH-08',
      'R-WH-09',
      'R-WH-13',
      'R-WH-14',
      'R-WH-16',
      'R-WH-17',
      'R-WH-18',
      'R-STATE-02',
      'R-STATE-03',
      'R-WH-10',
    ],
  }),
  getDemoUser: route({
    method: 'GET',
    path: '/demo-user',
    modes: BOTH,
    sandboxOnly: true,
    auth: 'none',
    summary: 'The demo users (sandbox only; 404 in production)',
    tag: 'Sandbox',
    answers: {
      200: {
        description: 'The first demo user, and users: every one',
        body: { name: 'DemoUser', schema: demoUserSchema },
      },
    },
    problems: ['not_found'],
    rules: ['R-EP-14'],
  }),
  bnplRedirect: route({
    method: 'GET',
    path: { configurable: 'bnplRedirect' },
    modes: BOTH,
    auth: 'none',
    summary: 'Where the provider sends the user’s browser after the BNPL flow',
    tag: 'Orders',
    params: SERVICE_ORDER_ID,
    answers: { 302: { description: 'To getBNPLCallback(order)', location: 'The market’s callback URL' } },
    problems: ['validation_failed', 'order_not_found', ...STORE],
    rules: ['R-EP-17', 'R-EP-18', 'R-LINE-07'],
  }),
} as const satisfies Record<string, MarketRouteDefinition>;

export type MarketOperation = keyof typeof MARKET_ROUTES;
export const MARKET_OPERATIONS = Object.keys(MARKET_ROUTES) as MarketOperation[];

/** The route's path under the market's paths (`/v1/webhook`), `:name` parameters kept. */
export function marketRoutePath(definition: MarketRouteDefinition, paths: MarketPaths): string {
  const path = typeof definition.path === 'string' ? definition.path : paths[definition.path.configurable];
  return `${paths.prefix}${path}`;
}

/** Whether a market in this integration mode and run mode serves the route. */
export function servesRoute(
  definition: MarketRouteDefinition,
  integrationMode: IntegrationMode,
  mode: 'sandbox' | 'production',
): boolean {
  return definition.modes.includes(integrationMode) && (mode === 'sandbox' || !definition.sandboxOnly);
}

/** The operations a market in this integration mode and run mode serves, in table order. */
export function marketOperationsFor(
  integrationMode: IntegrationMode,
  mode: 'sandbox' | 'production',
): MarketOperation[] {
  return MARKET_OPERATIONS.filter((name) => servesRoute(MARKET_ROUTES[name], integrationMode, mode));
}

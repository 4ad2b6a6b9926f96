/**
 * The admin API's routes: the "dashboard" settings and the provider's buttons, plus records to read
 * (orders, users, claims, deliveries, calls). Plain snake_case JSON in and out.
 */
import { type ErrorCode, KitError } from '@bnpl-kit/core';
import { type Method, parseSigningKey, parseWire } from '@bnpl-kit/core/wire';
import { z } from 'zod';
import { autoScenarioJsonSchema, autoScenarioView } from '../auto.js';
import { faultFromJson, faultJsonSchema } from '../faults.js';
import { json } from '../http.js';
import {
  type OrganizationInput,
  organizationCodec,
  organizationView,
  parseOrganizationJson,
} from '../organizations.js';
import type { Sandbox } from '../sandbox.js';
import {
  callView,
  claimView,
  deliveryView,
  disbursementView,
  orderView,
  transactionView,
  userView,
} from './views.js';

export interface AdminContext {
  sandbox: Sandbox;
  request: Request;
  params: Record<string, string>;
  url: URL;
  body(): Promise<unknown>;
}

export type AdminHandler = (ctx: AdminContext) => Promise<Response> | Response;

const approveSchema = z.object({
  credify_id: z.string().min(1).optional(),
  offer_code: z.string().min(1).optional(),
});
const readySchema = z.object({ via: z.enum(['status', 'requirement', 'both']).optional() });
const replaySchema = z.object({ verbatim: z.boolean().optional() });
const transactionSchema = z.object({
  id: z.string().min(1).optional(),
  credify_id: z.string().min(1),
  order_id: z.string().min(1).optional(),
  offer_code: z.string().min(1),
  transaction_status: z.string().min(1).max(64),
});
const disputeSchema = z.object({ dispute_status: z.string().min(1).max(64) });
const emitSchema = z.object({
  organization_id: z.string().min(1).optional(),
  payload: z.looseObject({ type: z.string().min(1) }),
});
// Any JSON value: a parsed body holds nothing else (z.json() would document a recursive type that
// generated clients cannot name, TS2502).
const claimCheckSchema = z.object({
  scope_name: z.string().min(1),
  claims: z.record(z.string(), z.unknown().meta({ description: 'Any JSON value' })),
});

/**
 * The request body schema of each admin route that reads one, keyed `METHOD pattern`: the source of
 * the admin API's OpenAPI document (src/openapi.ts), next to the handlers that parse with them.
 */
export const ADMIN_REQUEST_SCHEMAS: Readonly<Record<string, z.ZodType>> = {
  'PUT /sandbox/organizations/:id': organizationCodec.schema,
  'PATCH /sandbox/organizations/:id': organizationCodec.schema,
  'POST /sandbox/orders/:id/approve': approveSchema,
  'POST /sandbox/orders/:id/ready': readySchema,
  'POST /sandbox/claims/:credifyId/check': claimCheckSchema,
  'POST /sandbox/transactions': transactionSchema,
  'POST /sandbox/transactions/:id/dispute': disputeSchema,
  'POST /sandbox/webhooks/deliveries/:id/replay': replaySchema,
  'POST /sandbox/webhooks/events': emitSchema,
  'POST /sandbox/faults': faultJsonSchema,
  'PUT /sandbox/auto': autoScenarioJsonSchema,
};

/**
 * What each admin route answers besides its body, keyed `METHOD pattern`: the success status (200
 * unless listed) and the problem codes beyond those of every route (handler.ts: `ADMIN_PROBLEMS`).
 * The dispatcher answers with this status, so the document (src/openapi.ts) cannot drift from it.
 */
export interface AdminAnswer {
  readonly status?: 201 | 202 | 204;
  readonly problems?: readonly ErrorCode[];
  /** Rules beyond the request schema, by protocol rule ID (the document's `x-bnpl-rules`). */
  readonly rules?: readonly { id: string; rule: string }[];
}

/** `signing_key` is checked before the organisation is stored (`checkedOrganization`). */
const SIGNING_KEY_RULE = [
  {
    id: 'R-CONF-03',
    rule: 'signing_key is an Ed25519 PKCS#8 PEM or a base64url 32-byte seed (the APP_SIGNING_KEY formats)',
  },
] as const;

/** A ServiceFailure of the shared order code: 404, 409 (a transition), 400. */
const ORDER_ACTION: readonly ErrorCode[] = ['not_found', 'invalid_transition', 'validation_failed'];

export const ADMIN_ANSWERS: Readonly<Record<string, AdminAnswer>> = {
  'GET /sandbox/organizations/:id': { problems: ['not_found'] },
  'PUT /sandbox/organizations/:id': {
    problems: ['validation_failed', 'invalid_json'],
    rules: SIGNING_KEY_RULE,
  },
  'PATCH /sandbox/organizations/:id': {
    problems: ['validation_failed', 'invalid_json', 'not_found'],
    rules: SIGNING_KEY_RULE,
  },
  'DELETE /sandbox/organizations/:id': { status: 204, problems: ['not_found'] },
  'GET /sandbox/organizations/:id/signing-key': { problems: ['not_found'] },
  'POST /sandbox/organizations/:id/offer-filter-token': { status: 201, problems: ['not_found'] },
  'DELETE /sandbox/organizations/:id/access-tokens': { problems: ['not_found'] },
  'GET /sandbox/orders/:id': { problems: ['order_not_found'] },
  'POST /sandbox/orders/:id/approve': { problems: [...ORDER_ACTION, 'invalid_json'] },
  'POST /sandbox/orders/:id/reject': { problems: ORDER_ACTION },
  'POST /sandbox/orders/:id/ready': { problems: [...ORDER_ACTION, 'invalid_json'] },
  'POST /sandbox/orders/:id/paid': { problems: ORDER_ACTION },
  'POST /sandbox/claims/:credifyId/check': { problems: ['validation_failed', 'invalid_json'] },
  'POST /sandbox/transactions': { problems: [...ORDER_ACTION, 'invalid_json'] },
  'POST /sandbox/transactions/:id/dispute': { problems: [...ORDER_ACTION, 'invalid_json'] },
  'GET /sandbox/webhooks/deliveries/:id': { problems: ['not_found'] },
  'POST /sandbox/webhooks/deliveries/:id/replay': {
    status: 202,
    problems: ['validation_failed', 'invalid_json', 'not_found', 'conflict'],
  },
  'POST /sandbox/webhooks/events': {
    status: 202,
    problems: ['validation_failed', 'invalid_json', 'not_found'],
  },
  'POST /sandbox/faults': { status: 201, problems: ['validation_failed', 'invalid_json'] },
  'DELETE /sandbox/faults': { status: 204 },
  'GET /sandbox/calls': { problems: ['validation_failed'] },
  'DELETE /sandbox/calls': { status: 204 },
  'PUT /sandbox/auto': { problems: ['validation_failed', 'invalid_json'] },
};

/** The success status of an admin route. */
export function adminSuccessStatus(key: string): 200 | 201 | 202 | 204 {
  return ADMIN_ANSWERS[key]?.status ?? 200;
}

/**
 * An organisation whose signing key does not parse is the admin caller's bad input (400), refused
 * before anything is stored; stored, it would answer 500 `misconfigured` on every later read.
 */
function checkedOrganization(input: OrganizationInput): OrganizationInput {
  if (typeof input.signingKey === 'string') {
    try {
      parseSigningKey(input.signingKey);
    } catch (error) {
      const message = (error as Error).message;
      throw new KitError('validation_failed', `Organization is invalid: signing_key: ${message}`, {
        errors: [{ path: 'signing_key', message }],
      });
    }
  }
  return input;
}

/** The record a route names, or its 404. */
function existing<T>(record: T | undefined, code: 'not_found' | 'order_not_found', message: string): T {
  if (record === undefined) throw new KitError(code, message);
  return record;
}

/** A query parameter that must be a whole number when given: anything else is a 400, not a guess. */
function nonNegativeInteger(value: string | null, name: string): number | undefined {
  if (value === null) return undefined;
  if (!/^\d{1,15}$/.test(value)) {
    throw new KitError('validation_failed', `Query parameter ${name} must be a non-negative integer`);
  }
  return Number(value);
}

function orgOr404(sandbox: Sandbox, id: string) {
  return existing(sandbox.organizations.get(id), 'not_found', `No organisation ${id}`);
}

export async function orgJson(sandbox: Sandbox, id: string) {
  const organization = orgOr404(sandbox, id);
  return organizationView(organization, await sandbox.organizations.claimPublicKey(id));
}

export type AdminRoute = [method: Method, pattern: string, handler: AdminHandler];

export const ADMIN_ROUTES: AdminRoute[] = [
  [
    'GET',
    '/sandbox/organizations',
    async ({ sandbox }) =>
      json({
        organizations: await Promise.all(sandbox.organizations.list().map((o) => orgJson(sandbox, o.id))),
      }),
  ],
  [
    'GET',
    '/sandbox/organizations/:id',
    async ({ sandbox, params }) => json(await orgJson(sandbox, params.id!)),
  ],
  [
    'PUT',
    '/sandbox/organizations/:id',
    async ({ sandbox, params, body }) => {
      sandbox.organizations.upsert(checkedOrganization(parseOrganizationJson(await body(), params.id)));
      return json(await orgJson(sandbox, params.id!));
    },
  ],
  [
    'PATCH',
    '/sandbox/organizations/:id',
    async ({ sandbox, params, body }) => {
      orgOr404(sandbox, params.id!);
      const input = checkedOrganization(parseOrganizationJson(await body(), params.id));
      sandbox.organizations.update(params.id!, input);
      return json(await orgJson(sandbox, params.id!));
    },
  ],
  [
    'DELETE',
    '/sandbox/organizations/:id',
    ({ sandbox, params }) => {
      orgOr404(sandbox, params.id!);
      sandbox.organizations.remove(params.id!);
      return new Response(null);
    },
  ],
  // The dashboard shows the signing key "after password entry"; here the admin token plays that part.
  [
    'GET',
    '/sandbox/organizations/:id/signing-key',
    ({ sandbox, params }) => json({ signing_key: orgOr404(sandbox, params.id!).signingKey ?? null }),
  ],
  [
    'POST',
    '/sandbox/organizations/:id/offer-filter-token',
    ({ sandbox, params }) => {
      orgOr404(sandbox, params.id!);
      return json({ access_token: sandbox.organizations.offerFilterToken(params.id!) });
    },
  ],
  [
    'DELETE',
    '/sandbox/organizations/:id/access-tokens',
    ({ sandbox, params }) => {
      orgOr404(sandbox, params.id!);
      return json({ revoked: sandbox.organizations.revokeAccessTokens(params.id!) });
    },
  ],
  [
    'GET',
    '/sandbox/orders',
    ({ sandbox, url }) => {
      // A certification run looks its orders up by reference: only those, not the whole book.
      const referenceId = url.searchParams.get('reference_id');
      const all = sandbox.orders.list();
      const chosen = referenceId === null ? all : all.filter((o) => o.referenceId === referenceId);
      return json({ orders: chosen.map(orderView) });
    },
  ],
  [
    'GET',
    '/sandbox/orders/:id',
    ({ sandbox, params }) =>
      json(orderView(existing(sandbox.orders.get(params.id!), 'order_not_found', `No order ${params.id}`))),
  ],
  [
    'POST',
    '/sandbox/orders/:id/approve',
    async ({ sandbox, params, body }) => {
      const input = parseWire(approveSchema, await body());
      return json(
        orderView(
          sandbox.orders.approve(params.id!, {
            ...(input.credify_id && { credifyId: input.credify_id }),
            ...(input.offer_code && { offerCode: input.offer_code }),
          }),
        ),
      );
    },
  ],
  [
    'POST',
    '/sandbox/orders/:id/reject',
    ({ sandbox, params }) => json(orderView(sandbox.orders.reject(params.id!))),
  ],
  [
    'POST',
    '/sandbox/orders/:id/ready',
    async ({ sandbox, params, body }) =>
      json(orderView(sandbox.orders.confirmReadiness(params.id!, parseWire(readySchema, await body()).via))),
  ],
  [
    'POST',
    '/sandbox/orders/:id/paid',
    ({ sandbox, params }) => json(orderView(sandbox.orders.markPaid(params.id!))),
  ],
  ['GET', '/sandbox/users', ({ sandbox }) => json({ users: sandbox.users.list().map(userView) })],
  [
    'GET',
    '/sandbox/claims/:credifyId',
    ({ sandbox, params }) =>
      json({
        credify_id: params.credifyId,
        claim_tokens: sandbox.claims.list(params.credifyId!).map(claimView),
      }),
  ],
  [
    'POST',
    '/sandbox/claims/:credifyId/check',
    async ({ sandbox, params, body }) => {
      const input = parseWire(claimCheckSchema, await body());
      return json({
        // A parsed JSON body: its values are JSON values, which is what claims are.
        matches: await sandbox.claims.matches(
          params.credifyId!,
          input.scope_name,
          input.claims as Parameters<Sandbox['claims']['matches']>[2],
        ),
      });
    },
  ],
  [
    'GET',
    '/sandbox/transactions',
    ({ sandbox }) => json({ transactions: sandbox.transactions.list().map(transactionView) }),
  ],
  [
    'POST',
    '/sandbox/transactions',
    async ({ sandbox, body }) => {
      const t = parseWire(transactionSchema, await body());
      const transaction = sandbox.transactions.upsert({
        ...(t.id && { id: t.id }),
        ...(t.order_id && { orderId: t.order_id }),
        credifyId: t.credify_id,
        offerCode: t.offer_code,
        status: t.transaction_status,
      });
      return json(transactionView(transaction));
    },
  ],
  [
    'POST',
    '/sandbox/transactions/:id/dispute',
    async ({ sandbox, params, body }) => {
      const input = parseWire(disputeSchema, await body());
      return json(transactionView(sandbox.transactions.completeDispute(params.id!, input.dispute_status)));
    },
  ],
  [
    'GET',
    '/sandbox/disbursements',
    ({ sandbox, url }) => {
      const orderId = url.searchParams.get('order_id');
      const all = sandbox.disbursements();
      const chosen = orderId === null ? all : all.filter((d) => d.orderId === orderId);
      return json({ disbursements: chosen.map(disbursementView) });
    },
  ],
  [
    'GET',
    '/sandbox/webhooks/deliveries',
    ({ sandbox, url }) => {
      const q = url.searchParams;
      const deliveries = sandbox.webhooks.list({
        ...(q.get('status') && { status: q.get('status') as never }),
        ...(q.get('event_type') && { eventType: q.get('event_type')! }),
        ...(q.get('event_id') && { eventId: q.get('event_id')! }),
        ...(q.get('organization_id') && { organizationId: q.get('organization_id')! }),
        ...(q.get('order_id') && { orderId: q.get('order_id')! }),
      });
      return json({ deliveries: deliveries.map(deliveryView) });
    },
  ],
  [
    'GET',
    '/sandbox/webhooks/deliveries/:id',
    ({ sandbox, params }) =>
      json(deliveryView(existing(sandbox.webhooks.get(params.id!), 'not_found', `No delivery ${params.id}`))),
  ],
  [
    'POST',
    '/sandbox/webhooks/deliveries/:id/replay',
    async ({ sandbox, params, body }) => {
      const input = parseWire(replaySchema, await body());
      let copy: ReturnType<Sandbox['webhooks']['replay']>;
      try {
        copy = sandbox.webhooks.replay(params.id!, { verbatim: input.verbatim ?? false });
      } catch (error) {
        throw new KitError('conflict', (error as Error).message);
      }
      return json(deliveryView(existing(copy, 'not_found', `No delivery ${params.id}`)));
    },
  ],
  [
    'POST',
    '/sandbox/webhooks/events',
    async ({ sandbox, body }) => {
      const input = parseWire(emitSchema, await body());
      const organizationId = input.organization_id ?? sandbox.organizations.primary().id;
      orgOr404(sandbox, organizationId);
      return json({ deliveries: sandbox.webhooks.emit(organizationId, input.payload).map(deliveryView) });
    },
  ],
  [
    'POST',
    '/sandbox/webhooks/flush',
    ({ sandbox }) => {
      sandbox.webhooks.flushHeld();
      return json({ flushed: true });
    },
  ],
  ['GET', '/sandbox/faults', ({ sandbox }) => json({ faults: sandbox.faults.list() })],
  [
    'POST',
    '/sandbox/faults',
    async ({ sandbox, body }) =>
      json(sandbox.faults.inject(faultFromJson(parseWire(faultJsonSchema, await body(), 'Fault')))),
  ],
  [
    'DELETE',
    '/sandbox/faults',
    ({ sandbox }) => {
      sandbox.faults.clear();
      return new Response(null);
    },
  ],
  [
    'GET',
    '/sandbox/calls',
    ({ sandbox, url }) => {
      // `after`: the calls since one a client saw; `limit`: the most recent ones only. A certify run
      // reads both once per check, while the record keeps every run's calls (up to 10 000).
      const after = nonNegativeInteger(url.searchParams.get('after'), 'after');
      const limit = nonNegativeInteger(url.searchParams.get('limit'), 'limit');
      const calls = sandbox.calls.list(after === undefined ? {} : { after });
      const chosen = limit === undefined ? calls : calls.slice(Math.max(0, calls.length - limit));
      return json({ calls: chosen.map(callView) });
    },
  ],
  [
    'DELETE',
    '/sandbox/calls',
    ({ sandbox }) => {
      sandbox.calls.clear();
      return new Response(null);
    },
  ],
  ['GET', '/sandbox/auto', ({ sandbox }) => json(autoScenarioView(sandbox.auto.get()))],
  [
    'PUT',
    '/sandbox/auto',
    async ({ sandbox, body }) => {
      sandbox.auto.set(parseWire(autoScenarioJsonSchema, await body(), 'Auto scenario'));
      return json(autoScenarioView(sandbox.auto.get()));
    },
  ],
];

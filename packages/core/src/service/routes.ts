/**
 * The service API (WIRE §6) as one table: every operation's method, path, auth, idempotency and the
 * wire schemas of its request body and response `data`. The client and the sandbox both import it,
 * so a path, a field name or a status rule cannot differ between the kit and its simulated service.
 *
 * Schemas are wire codecs (models/wire.ts): `schema` validates snake_case JSON and decodes it into
 * the camelCase model, `encode` goes back. The client encodes requests and decodes responses; the
 * sandbox decodes requests and encodes responses.
 */
import * as z from 'zod';
import { amountCodec, positiveAmountCodec } from '../models/money.js';
import { checkOrderTotals, disburseRequestCodec, newOrderLinesField } from '../models/order.js';
import { orderLineCodec, orderLineSchema } from '../models/order-line.js';
import { serviceOrderStatusSchema } from '../models/status.js';
import { isStringifiedNothing } from '../models/text.js';
import { field, nested, nestedArray, optionalNested, type WireCodec, wireObject } from '../models/wire.js';
import type { Method } from '../util/http-method.js';

const text255 = z
  .string()
  .min(1, { error: 'must not be empty' })
  .max(255, { error: 'must be at most 255 characters' });
/** An ID the market stores from the service's answer: never the text of a missing value. */
const serviceId = text255.refine((value) => !isStringifiedNothing(value), {
  error: 'must be an identifier, not the text of a missing value ("undefined", "null")',
});
const orderLines = { schema: orderLineSchema, encode: orderLineCodec.encode };

const paymentRecipientCodec = wireObject({
  type: field('type', text255),
  id: field('id', text255),
});

export const serviceOrderCodec = wireObject({
  id: field('id', serviceId),
  referenceId: field('reference_id', text255),
  totalAmount: nested('total_amount', amountCodec),
  orderLines: nestedArray('order_lines', orderLines, (line) => z.array(line)),
  // Read tolerantly (WIRE §6): a value outside the six is kept, never a 502.
  orderStatus: field('order_status', serviceOrderStatusSchema),
});

const createOrderBaseCodec = wireObject({
  referenceId: field('reference_id', text255),
  totalAmount: nested('total_amount', positiveAmountCodec),
  orderLines: newOrderLinesField,
  paymentRecipient: optionalNested('payment_recipient', paymentRecipientCodec),
});

/** The service applies the market endpoint's totals rule, the same function (WIRE §1). */
export const createOrderRequestCodec = {
  schema: createOrderBaseCodec.schema.superRefine(checkOrderTotals),
  encode: createOrderBaseCodec.encode,
};

const emptyBodyCodec = wireObject({});

const accessTokenCodec = wireObject({
  accessToken: field('access_token', z.string().min(1)),
  expiresIn: field('expires_in', z.number().int().positive()),
});

const pushClaimTokensRequestCodec = wireObject({
  claimTokens: field(
    'claim_tokens',
    z
      .array(z.string().min(1))
      .min(1, { error: 'at least one claim token' })
      .max(100, { error: 'at most 100 tokens' }),
  ),
});

const publicKeyCodec = wireObject({
  signing: field('signing', z.string().min(1)),
});

const introspectRequestCodec = wireObject({
  token: field('token', z.string().min(1)),
  scope: field('scope', z.string().default('')),
});

const introspectionCodec = wireObject({
  active: field('active', z.boolean()),
  // RFC 7662: an inactive token's answer may carry nothing but `active`.
  scope: field('scope', z.string().default('')),
  aud: field('aud', z.union([z.string(), z.array(z.string())]).optional()),
  exp: field('exp', z.number().int().optional()),
  sub: field('sub', z.string().optional()),
});

const availabilityRequestCodec = wireObject({
  localId: field('local_id', text255),
  credifyId: field('credify_id', serviceId.optional()),
  phoneNumber: field('phone_number', z.string().max(32).optional()),
  countryCode: field('country_code', z.string().max(8).optional()),
  productTypes: field('product_types', z.array(z.string().min(1)).max(20).default([])),
});

const availabilityResponseCodec = wireObject({
  offers: field('offers', z.array(z.record(z.string(), z.unknown()))),
  credifyId: field('credify_id', serviceId.optional()),
});

/** The methods the service API uses: a subset of the router's, so its routes mount as they are. */
export type HttpMethod = Extract<Method, 'GET' | 'POST' | 'PUT'>;

export interface RouteDefinition<
  Request extends WireCodec<z.ZodType> = WireCodec<z.ZodType>,
  Response extends WireCodec<z.ZodType> = WireCodec<z.ZodType>,
> {
  readonly method: HttpMethod;
  /** Relative to the service base URL; `:name` segments are path parameters. */
  readonly path: string;
  /** Body codec; `undefined` for routes without a body. */
  readonly request: Request | undefined;
  /** Codec of the envelope's `data`. */
  readonly response: Response;
  /** Safe to repeat: the client retries these (with jittered backoff) and never sends an Idempotency-Key. */
  readonly idempotent: boolean;
  readonly auth: 'api-key' | 'bearer';
  /** Query parameters the route reads. */
  readonly query?: readonly string[];
  /** What a 404 means on this route. */
  readonly notFound?: 'order_not_found' | 'user_not_found' | 'not_found';
  /** Rule IDs (docs/protocol.md) the request codec enforces beyond its JSON Schema (`x-bnpl-rules`). */
  readonly rules?: readonly string[];
}

function route<Req extends WireCodec<z.ZodType>, Res extends WireCodec<z.ZodType>>(
  definition: RouteDefinition<Req, Res>,
): RouteDefinition<Req, Res> {
  return definition;
}

const ORDERS = '/v1/integration/bnpl-consumers/orders';

export const SERVICE_ROUTES = {
  token: route({
    method: 'POST',
    path: '/v1/token',
    request: undefined,
    response: accessTokenCodec,
    idempotent: true,
    auth: 'api-key',
  }),
  createOrder: route({
    method: 'POST',
    path: ORDERS,
    request: createOrderRequestCodec,
    response: serviceOrderCodec,
    idempotent: false,
    auth: 'bearer',
    // The market endpoint's order codec and totals rule (`checkOrderTotals`), so its rules too.
    rules: ['R-ORDER-01', 'R-ORDER-02', 'R-LINE-05', 'R-LINE-06', 'R-LINE-07'],
  }),
  getOrder: route({
    method: 'GET',
    path: `${ORDERS}/:id`,
    request: undefined,
    response: serviceOrderCodec,
    idempotent: true,
    auth: 'bearer',
    notFound: 'order_not_found',
  }),
  revertOrder: route({
    method: 'POST',
    path: `${ORDERS}/:id/revert`,
    request: emptyBodyCodec,
    response: serviceOrderCodec,
    idempotent: false,
    auth: 'bearer',
    notFound: 'order_not_found',
  }),
  disburseOrder: route({
    method: 'POST',
    path: `${ORDERS}/:id/disburse`,
    request: disburseRequestCodec,
    response: serviceOrderCodec,
    idempotent: false,
    auth: 'bearer',
    notFound: 'order_not_found',
  }),
  pushClaimTokens: route({
    method: 'PUT',
    path: '/v1/claim-providers/entities/:credify_id/claims',
    request: pushClaimTokensRequestCodec,
    response: emptyBodyCodec,
    idempotent: false,
    auth: 'bearer',
    notFound: 'user_not_found',
  }),
  getPublicKey: route({
    method: 'GET',
    path: '/v1/entity/public-key',
    request: undefined,
    response: publicKeyCodec,
    idempotent: true,
    auth: 'bearer',
    query: ['entity_id'],
  }),
  introspectToken: route({
    method: 'POST',
    path: '/v1/oauth2/introspect',
    request: introspectRequestCodec,
    response: introspectionCodec,
    idempotent: true,
    auth: 'bearer',
  }),
  // Find-or-create of the service user: repeating it changes nothing, so it is safe to retry.
  checkAvailability: route({
    method: 'POST',
    path: '/v1/claim-providers/offers',
    request: availabilityRequestCodec,
    response: availabilityResponseCodec,
    idempotent: true,
    auth: 'bearer',
  }),
} as const;

export type ServiceOperation = keyof typeof SERVICE_ROUTES;
export const SERVICE_OPERATIONS = Object.keys(SERVICE_ROUTES) as ServiceOperation[];
/**
 * The operations that act on one order, named by its ID in their path (`:id`): getOrder,
 * revertOrder, disburseOrder. What a sandbox fault's `order_id` can match, and what certify
 * counts per order.
 */
export const ORDER_SERVICE_OPERATIONS: readonly ServiceOperation[] = SERVICE_OPERATIONS.filter((operation) =>
  SERVICE_ROUTES[operation].path.includes('/:id'),
);

/** The scope the service puts on tokens it issues for calling a market's offer filtering endpoint. */
export const READ_FILTERED_OFFERS_SCOPE = 'claim_provider:read_filtered_offers';
/** The API-key permission BNPL needs (specification, Authentication 1). */
export const CLAIM_PROVIDER_PERMISSION = 'claim_provider';
export const API_KEY_HEADER = 'X-API-KEY';
export const IDEMPOTENCY_KEY_HEADER = 'Idempotency-Key';

/** Fills `:name` segments, percent-encoding each value. */
export function buildServicePath(template: string, params: Readonly<Record<string, string>>): string {
  return template.replace(/:([a-z_]+)/g, (_, name: string) => {
    const value = params[name];
    if (value === undefined || value === '') throw new TypeError(`Missing path parameter ${name}`);
    return encodeURIComponent(value);
  });
}

// ---- Envelope ----------------------------------------------------------------------------------

export const envelopeErrorSchema = z.object({ code: z.string(), message: z.string() });
export type EnvelopeError = z.infer<typeof envelopeErrorSchema>;

const failureEnvelopeSchema = z.object({
  success: z.literal(false),
  errors: z.array(envelopeErrorSchema),
});

/** `{ success: true, data }`; `data` is checked separately so its issues carry `data.` paths. */
const successEnvelopeSchema = z.object({ success: z.literal(true), data: z.unknown() });

export const envelopeSchema = z.discriminatedUnion('success', [successEnvelopeSchema, failureEnvelopeSchema]);

/** Error codes the service (and the sandbox) put in failure envelopes. */
const SERVICE_ERROR_CODES = [
  'UNAUTHENTICATED',
  'FORBIDDEN',
  'NOT_FOUND',
  'METHOD_NOT_ALLOWED',
  'VALIDATION_FAILED',
  'INVALID_CLAIM_TOKEN',
  'CONFLICT',
  'IDEMPOTENCY_CONFLICT',
  'OFFER_FILTERING_FAILED',
  'INTERNAL',
] as const;
export type ServiceErrorCode = (typeof SERVICE_ERROR_CODES)[number];

export function successEnvelope(data: unknown): { success: true; data: unknown } {
  return { success: true, data };
}

export function failureEnvelope(errors: EnvelopeError[]): { success: false; errors: EnvelopeError[] } {
  return { success: false, errors };
}

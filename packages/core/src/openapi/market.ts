/**
 * The market endpoints (WIRE §5) as an OpenAPI 3.1 document, per integration mode, generated from
 * the same codecs the handler validates with. Webhook events are the document's `webhooks`; the
 * `POST /webhook` path documents what the receiver answers.
 */
import { z } from 'zod';
import { DEFAULT_PATHS, type MarketPaths } from '../market/options.js';
import { pushClaimsRequestCodec } from '../market/routes/claims.js';
import {
  disbursementRequirementUpdatedCodec,
  disputeStatusUpdatedCodec,
  EVENT_TYPES,
  offerTransactionStatusUpdatedCodec,
  orderStatusUpdatedCodec,
} from '../models/events.js';
import {
  disburseRequestCodec,
  orderActionResultCodec,
  orderCreateRequestCodec,
  orderRecordCodec,
  orderStatusInfoCodec,
} from '../models/order.js';
import { filterOffersRequestSchema, filterOffersResponseSchema } from '../offers/schemas.js';
import { READ_FILTERED_OFFERS_SCOPE } from '../service/routes.js';
import {
  ALGORITHM_HEADER,
  EVENT_ID_HEADER,
  EVENT_TIMESTAMP_HEADER,
  SIGNATURE_HEADER,
  WEBHOOK_ALGORITHM,
} from '../signature/message.js';
import { problemResponses } from './problem.js';
import { SchemaSet } from './schemas.js';
import type {
  JsonSchema,
  OpenApiDocument,
  OperationObject,
  ParameterObject,
  PathItem,
  ResponseObject,
} from './types.js';

export interface MarketOpenApiOptions {
  integrationMode: 'basic' | 'data-sharing';
  /** `sandbox` adds `GET /demo-user` (404 in production). Default `sandbox`. */
  mode?: 'sandbox' | 'production';
  paths?: Partial<MarketPaths>;
  /** The `servers` entry; default a relative `/`, so the document works wherever it is served. */
  serverUrl?: string;
  /** `info.version`; default the core package version the document was generated with. */
  version?: string;
}

export const OPENAPI_VERSION = '0.1.0';

const JSON_TYPE = 'application/json';
const json = (schema: JsonSchema) => ({ [JSON_TYPE]: { schema } });
const MARKET_SYSTEMS = [{ marketSystems: [] }];
const UPSTREAM = [502, 503, 504];

const webhookAckSchema = z.object({
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

function pathParam(name: string, description: string): ParameterObject {
  return { name, in: 'path', required: true, description, schema: { type: 'string', minLength: 1 } };
}

/** The `info` of every document the kit generates: one licence, one default version. */
export function openApiInfo(
  title: string,
  description: string,
  version: string = OPENAPI_VERSION,
): OpenApiDocument['info'] {
  return { title, version, description, license: { name: 'MIT', identifier: 'MIT' } };
}

/** `/orders/:id/cancel` → `/orders/{id}/cancel`. */
export function openApiPath(path: string): string {
  return path.replace(/:([A-Za-z_]+)/g, '{$1}');
}

function ok(description: string, schema: JsonSchema): ResponseObject {
  return { description, content: json(schema) };
}

function signatureParameters(): ParameterObject[] {
  const header = (name: string, description: string, schema: JsonSchema): ParameterObject => ({
    name,
    in: 'header',
    required: true,
    description,
    schema,
  });
  return [
    header(SIGNATURE_HEADER, 'Ed25519 signature of the signing string, base64url without padding (WIRE §4)', {
      type: 'string',
      pattern: '^[A-Za-z0-9_-]{86}$',
    }),
    header(ALGORITHM_HEADER, 'Always EdDSA', { type: 'string', const: WEBHOOK_ALGORITHM }),
    header(EVENT_ID_HEADER, 'The event ID; a repeated ID is acknowledged as a duplicate', {
      type: 'string',
      minLength: 1,
    }),
    header(EVENT_TIMESTAMP_HEADER, 'YYYY-MM-DDTHH:MM:SSZ, within ±300 s of the receiver’s clock', {
      type: 'string',
      pattern: '^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}Z$',
    }),
  ];
}

function eventSchemas(set: SchemaSet) {
  return {
    [EVENT_TYPES.orderStatusUpdated]: set.ref(
      'OrderStatusUpdatedEvent',
      orderStatusUpdatedCodec.schema,
      'A status outside the six is acknowledged and handed to onUnknownEvent (WIRE §6)',
    ),
    [EVENT_TYPES.offerTransactionStatusUpdated]: set.ref(
      'OfferTransactionStatusUpdatedEvent',
      offerTransactionStatusUpdatedCodec.schema,
    ),
    [EVENT_TYPES.disputeStatusUpdated]: set.ref(
      'DisputeStatusUpdatedEvent',
      disputeStatusUpdatedCodec.schema,
    ),
    [EVENT_TYPES.disbursementRequirementUpdated]: set.ref(
      'DisbursementRequirementUpdatedEvent',
      disbursementRequirementUpdatedCodec.schema,
    ),
  };
}

function webhookResponses(set: SchemaSet): Record<string, ResponseObject> {
  return {
    '200': ok(
      'Acknowledged (also for an unknown type or status, WIRE §4, §6)',
      set.ref('WebhookAck', webhookAckSchema),
    ),
    ...problemResponses(set, [400, 401, 413, 500]),
  };
}

export function marketOpenApi(options: MarketOpenApiOptions): OpenApiDocument {
  const paths = { ...DEFAULT_PATHS, ...options.paths };
  const p = (path: string) => openApiPath(`${paths.prefix}${path}`);
  const dataSharing = options.integrationMode === 'data-sharing';
  const set = new SchemaSet();
  const orderRecord = set.ref(
    'OrderRecord',
    orderRecordCodec.schema,
    'totalAmount is camelCase on the wire (specification)',
  );
  const orderId = pathParam('id', 'The service-side order ID');
  const out: Record<string, PathItem> = {};
  const add = (path: string, verb: 'get' | 'post', operation: OperationObject) => {
    out[path] = { ...out[path], [verb]: operation };
  };

  add(p('/orders'), 'post', {
    operationId: 'createOrder',
    summary: 'Create an order',
    description:
      'Same reference_id with the same content answers 200 with the existing order; different content 409.',
    tags: ['Orders'],
    security: MARKET_SYSTEMS,
    requestBody: {
      required: true,
      content: json(set.ref('OrderCreateRequest', orderCreateRequestCodec.schema)),
    },
    responses: {
      '201': ok('Created', orderRecord),
      '200': ok('The existing order of this reference_id (same content)', orderRecord),
      ...problemResponses(set, [400, 401, 409, 413, 415, ...UPSTREAM]),
    },
  });
  add(p('/orders/service/:id'), 'get', {
    operationId: 'getOrderStatus',
    summary: 'Order status, reconciled forward with the service',
    tags: ['Orders'],
    security: MARKET_SYSTEMS,
    parameters: [orderId],
    responses: {
      '200': ok(
        'The stored record after reconciling',
        set.ref('OrderStatusInfo', orderStatusInfoCodec.schema),
      ),
      ...problemResponses(set, [401, 404, ...UPSTREAM]),
    },
  });
  if (dataSharing) {
    const actionResult = set.ref('OrderActionResult', orderActionResultCodec.schema);
    add(p('/orders/:id/cancel'), 'post', {
      operationId: 'cancelOrder',
      summary: 'Cancel (revert) an approved order',
      tags: ['Orders'],
      security: MARKET_SYSTEMS,
      parameters: [orderId],
      responses: {
        '202': ok('Accepted', actionResult),
        ...problemResponses(set, [401, 404, 409, ...UPSTREAM]),
      },
    });
    add(p('/orders/:id/disburse'), 'post', {
      operationId: 'disburseOrder',
      summary: 'Request disbursement of an approved order',
      description: 'Without an invoice in the body, the getDisbursementInvoice hook supplies one (WIRE §5).',
      tags: ['Orders'],
      security: MARKET_SYSTEMS,
      parameters: [orderId],
      requestBody: {
        required: false,
        content: json(set.ref('DisburseRequest', disburseRequestCodec.schema)),
      },
      responses: {
        '202': ok('Accepted', actionResult),
        ...problemResponses(set, [400, 401, 404, 409, ...UPSTREAM]),
      },
    });
    add(p('/push-claims'), 'post', {
      operationId: 'pushClaims',
      summary: 'Push the signed-in user’s claim tokens to the service',
      tags: ['Claims'],
      security: [{ userSession: [] }],
      requestBody: {
        required: true,
        content: json(set.ref('PushClaimsRequest', pushClaimsRequestCodec.schema)),
      },
      responses: {
        '200': ok('Pushed', set.ref('PushClaimsResponse', pushClaimsResponseSchema)),
        ...problemResponses(set, [400, 401, 403, 404, ...UPSTREAM]),
      },
    });
    add(p(paths.offerFilter), 'post', {
      operationId: 'filterOffers',
      summary: 'Offer filtering, called by the service',
      description: `Bearer token introspected at the service with scope ${READ_FILTERED_OFFERS_SCOPE} (WIRE §7).`,
      tags: ['Claims'],
      security: [{ serviceToken: [] }],
      requestBody: {
        required: true,
        content: json(set.ref('FilterOffersRequest', filterOffersRequestSchema)),
      },
      responses: {
        '200': ok('Offers with rank > 0', set.ref('FilterOffersResponse', filterOffersResponseSchema)),
        ...problemResponses(set, [400, 401, 403, 429, ...UPSTREAM]),
      },
    });
  }
  const events = eventSchemas(set);
  add(p(paths.webhook), 'post', {
    operationId: 'receiveWebhook',
    summary: 'Webhook receiver (service → market)',
    description: 'Signed as WIRE §4 says; the events are listed under webhooks.',
    tags: ['Webhooks'],
    security: [],
    parameters: signatureParameters(),
    requestBody: { required: true, content: json({ oneOf: Object.values(events) }) },
    responses: webhookResponses(set),
  });
  if ((options.mode ?? 'sandbox') === 'sandbox') {
    add(p('/demo-user'), 'get', {
      operationId: 'getDemoUser',
      summary: 'The demo users (sandbox only; 404 in production)',
      tags: ['Sandbox'],
      security: [],
      responses: {
        '200': ok('The first demo user, and users: every one', set.ref('DemoUser', demoUserSchema)),
        ...problemResponses(set, [404]),
      },
    });
  }
  add(p(paths.bnplRedirect), 'get', {
    operationId: 'bnplRedirect',
    summary: 'Where the provider sends the user’s browser after the BNPL flow',
    tags: ['Orders'],
    security: [],
    parameters: [pathParam('id', 'The service-side order ID')],
    responses: {
      '302': {
        description: 'To getBNPLCallback(order)',
        headers: {
          Location: {
            description: 'The market’s callback URL',
            required: true,
            schema: { type: 'string', format: 'uri' },
          },
        },
      },
      ...problemResponses(set, [404]),
    },
  });

  const webhooks: Record<string, PathItem> = {};
  for (const [type, schema] of Object.entries(events)) {
    webhooks[type] = {
      post: {
        operationId: `webhook_${type}`,
        summary: `${type} event`,
        tags: ['Webhooks'],
        security: [],
        parameters: signatureParameters(),
        requestBody: { required: true, content: json(schema) },
        responses: webhookResponses(set),
      },
    };
  }

  const modeName = dataSharing ? 'data-sharing' : 'basic';
  return {
    openapi: '3.1.0',
    info: openApiInfo(
      `bnpl-kit market endpoints (${modeName} mode)`,
      `The endpoints a market built on bnpl-kit serves in ${modeName} mode, generated from the kit's zod codecs. Reference: docs/protocol.md (WIRE §5).`,
      options.version,
    ),
    servers: [{ url: options.serverUrl ?? '/', description: 'The market backend' }],
    tags: [
      { name: 'Orders', description: 'Called by the market’s own systems' },
      ...(dataSharing
        ? [{ name: 'Claims', description: 'Claims and offer filtering (data-sharing mode)' }]
        : []),
      { name: 'Webhooks', description: 'Signed notifications from the service' },
      ...((options.mode ?? 'sandbox') === 'sandbox'
        ? [{ name: 'Sandbox', description: 'Sandbox-only helpers' }]
        : []),
    ],
    paths: out,
    webhooks,
    components: {
      schemas: set.components,
      securitySchemes: {
        marketSystems: {
          type: 'http',
          scheme: 'bearer',
          description: 'authenticateInternalAPIClient (MARKET_API_TOKEN in the reference servers)',
        },
        ...(dataSharing && {
          userSession: {
            type: 'http',
            scheme: 'bearer',
            description: 'authenticateInternalUser (the user’s session token)',
          },
          serviceToken: {
            type: 'http',
            scheme: 'bearer',
            description: `A service access token with scope ${READ_FILTERED_OFFERS_SCOPE}`,
          },
        }),
      },
    },
  };
}

/**
 * The market endpoints (WIRE §5) as an OpenAPI 3.1 document, per integration mode, derived from the
 * market route table (market/route-table.ts) and the codecs the handler validates with. Webhook
 * events are the document's `webhooks`; the `POST /webhook` path documents what the receiver answers.
 */

import type { ErrorCode } from '../errors.js';
import { DEFAULT_PATHS, type MarketPaths } from '../market/options.js';
import {
  MARKET_ROUTES,
  type MarketOperation,
  type MarketParam,
  type MarketRouteAuth,
  type MarketRouteDefinition,
  marketOperationsFor,
  marketRoutePath,
} from '../market/route-table.js';
import {
  disbursementRequirementUpdatedCodec,
  disputeStatusUpdatedCodec,
  EVENT_TYPES,
  MAX_EVENT_TYPE_LENGTH,
  offerTransactionStatusUpdatedCodec,
  orderStatusUpdatedTolerantCodec,
} from '../models/events.js';
import { safeText } from '../models/text.js';
import { READ_FILTERED_OFFERS_SCOPE } from '../service/routes.js';
import {
  ALGORITHM_HEADER,
  DEFAULT_TOLERANCE_SECONDS,
  EVENT_ID_HEADER,
  EVENT_TIMESTAMP_HEADER,
  SIGNATURE_HEADER,
  WEBHOOK_ALGORITHM,
} from '../signature/message.js';
import { problemResponses } from './problem.js';
import { RULES_BEYOND_SCHEMA } from './rules.js';
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

/** What the router accepts in a path parameter (create-market.ts `checkParams`): storable text. */
function pathParam(set: SchemaSet, name: string, { description, schema }: MarketParam): ParameterObject {
  return { name, in: 'path', required: true, description, schema: set.inline(schema) };
}

/**
 * Problems any route can answer: another method on its path (405 with `Allow`), a request too slow
 * to arrive (408) or headers over the server's limit (431, both the Node adapters), and a failure of
 * the market's own (500).
 */
const EVERY_ROUTE: readonly ErrorCode[] = [
  'method_not_allowed',
  'request_timeout',
  'headers_too_large',
  'internal',
];

/** A route's rules that JSON Schema cannot say, for `x-bnpl-rules` and the description. */
export function rulesBeyondSchema(ids: readonly string[] | undefined): { id: string; rule: string }[] {
  return (ids ?? []).flatMap((id) => {
    const rule = RULES_BEYOND_SCHEMA[id];
    return rule === undefined ? [] : [{ id, rule }];
  });
}

function describe(definition: MarketRouteDefinition, rules: readonly { id: string; rule: string }[]) {
  const sentence =
    rules.length === 0
      ? undefined
      : `Beyond the schema, also refused unless: ${rules.map(({ id, rule }) => `${rule} [${id}]`).join('; ')}.`;
  const text = [definition.description, sentence].filter((part) => part !== undefined).join(' ');
  return text === '' ? undefined : text;
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
    header(
      EVENT_TIMESTAMP_HEADER,
      `YYYY-MM-DDTHH:MM:SSZ, within ±${DEFAULT_TOLERANCE_SECONDS} s of the receiver’s clock`,
      {
        type: 'string',
        pattern: '^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}Z$',
      },
    ),
  ];
}

/** An event of a type other than the four: its `type` is storable text, the rest is not read. */
function unknownEventSchema(set: SchemaSet): JsonSchema {
  return {
    type: 'object',
    description:
      'An event of a type the market does not know (the service may add types): acknowledged with 200 and recorded with its event ID, nothing else (WIRE §6, R-WH-06)',
    required: ['type'],
    properties: {
      type: { ...set.inline(safeText(MAX_EVENT_TYPE_LENGTH)), not: { enum: Object.values(EVENT_TYPES) } },
    },
  };
}

function eventSchemas(set: SchemaSet) {
  return {
    [EVENT_TYPES.orderStatusUpdated]: set.ref(
      'OrderStatusUpdatedEvent',
      orderStatusUpdatedTolerantCodec.schema,
      'order_status is one of PENDING, APPROVED, DISBURSING, CANCELING, PAID, CANCELED (matched case-insensitively), or a status the service added later: that one is acknowledged, recorded and handed to onUnknownEvent, never refused (WIRE §6)',
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

/** The `securitySchemes` entry of each kind of caller; `none` and signed webhooks have none. */
const SECURITY: Record<MarketRouteAuth, Record<string, string[]>[]> = {
  'market-systems': [{ marketSystems: [] }],
  'user-session': [{ userSession: [] }],
  'service-token': [{ serviceToken: [] }],
  'webhook-signature': [],
  none: [],
};

const SECURITY_SCHEMES: Record<string, Record<string, unknown>> = {
  marketSystems: {
    type: 'http',
    scheme: 'bearer',
    description: 'authenticateInternalAPIClient (MARKET_API_TOKEN in the reference servers)',
  },
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
};

const TAGS: Record<MarketRouteDefinition['tag'], string> = {
  Orders: 'Called by the market’s own systems',
  Claims: 'Claims and offer filtering (data-sharing mode)',
  Webhooks: 'Signed notifications from the service',
  Sandbox: 'Sandbox-only helpers',
};

function answers(set: SchemaSet, definition: MarketRouteDefinition): Record<string, ResponseObject> {
  const out: Record<string, ResponseObject> = {};
  for (const [status, answer] of Object.entries(definition.answers)) {
    const response: ResponseObject = { description: answer.description };
    if (answer.body) {
      const { name, schema, description } = answer.body;
      response.content = json(set.ref(name, schema, description));
    }
    if (answer.location) {
      response.headers = {
        Location: { description: answer.location, required: true, schema: { type: 'string', format: 'uri' } },
      };
    }
    out[status] = response;
  }
  return { ...out, ...problemResponses(set, [...definition.problems, ...EVERY_ROUTE]) };
}

function operation(
  set: SchemaSet,
  name: MarketOperation,
  events: Record<string, JsonSchema>,
): OperationObject {
  const definition: MarketRouteDefinition = MARKET_ROUTES[name];
  const parameters = Object.entries(definition.params ?? {}).map(([param, spec]) =>
    pathParam(set, param, spec),
  );
  const rules = rulesBeyondSchema(definition.rules);
  const description = describe(definition, rules);
  if (definition.auth === 'webhook-signature') parameters.push(...signatureParameters());
  const op: OperationObject = {
    operationId: name,
    summary: definition.summary,
    ...(description !== undefined && { description }),
    tags: [definition.tag],
    security: SECURITY[definition.auth],
    ...(parameters.length > 0 && { parameters }),
    responses: answers(set, definition),
    ...(rules.length > 0 && { 'x-bnpl-rules': rules }),
  };
  if (definition.request) {
    const { name: schemaName, schema, description, required } = definition.request;
    op.requestBody = { required, content: json(set.ref(schemaName, schema, description)) };
  } else if (definition.auth === 'webhook-signature') {
    // What the receiver takes: the four events, or an event of a type it does not know, which is
    // acknowledged and recorded (WIRE §6, R-WH-06); under any Content-Type, since the signature
    // covers the bytes and the receiver reads them as strict UTF-8 JSON whatever the header says.
    const body: JsonSchema = { oneOf: [...Object.values(events), unknownEventSchema(set)] };
    op.requestBody = { required: true, content: { ...json(body), '*/*': { schema: body } } };
  }
  return op;
}

export function marketOpenApi(options: MarketOpenApiOptions): OpenApiDocument {
  const paths = { ...DEFAULT_PATHS, ...options.paths };
  const dataSharing = options.integrationMode === 'data-sharing';
  const set = new SchemaSet();
  const events = eventSchemas(set);
  const operations = marketOperationsFor(options.integrationMode, options.mode ?? 'sandbox');
  const out: Record<string, PathItem> = {};
  for (const name of operations) {
    const path = openApiPath(marketRoutePath(MARKET_ROUTES[name], paths));
    const verb = MARKET_ROUTES[name].method === 'GET' ? 'get' : 'post';
    out[path] = { ...out[path], [verb]: operation(set, name, events) };
  }
  const used = (pick: (definition: MarketRouteDefinition) => string) =>
    new Set(operations.map((name) => pick(MARKET_ROUTES[name])));
  const tags = used((definition) => definition.tag);
  const schemes = new Set(
    operations.flatMap((name) => SECURITY[MARKET_ROUTES[name].auth].flatMap(Object.keys)),
  );
  const webhookAnswers = answers(set, MARKET_ROUTES.receiveWebhook);

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
        responses: webhookAnswers,
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
    tags: (Object.keys(TAGS) as MarketRouteDefinition['tag'][])
      .filter((tag) => tags.has(tag))
      .map((name) => ({ name, description: TAGS[name] })),
    paths: out,
    webhooks,
    components: {
      schemas: set.components,
      securitySchemes: Object.fromEntries(
        Object.entries(SECURITY_SCHEMES).filter(([scheme]) => schemes.has(scheme)),
      ),
    },
  };
}

/** Order creation (WIRE §5): the record, idempotency on `reference_id`, content type and JSON. */
import { ORDER_STATUSES } from '@bnpl-kit/core';
import { ensure, expectJsonObject, expectProblem, expectStatus, isObject } from '../expect.js';
import { statusReached } from '../support/approvals.js';
import { canonicalJson } from '../support/canonical-json.js';
import {
  applyCase,
  type DomainCase,
  domainCases,
  getAt,
  requestSchema,
  type WirePath,
  wirePath,
} from '../support/domain-cases.js';
import { createOrder, type OrderRequest, postOrder, sampleOrder } from '../support/orders.js';
import { MARKET_ROUTES, routeUrl } from '../support/routes.js';
import { BOTH_MODES, type CheckContext, type ContractCheck } from '../types.js';
import { balanceOrder } from './domain-values.js';

/** A create request the market cannot read as an order: refused before any validation (WIRE §2). */
interface UnreadableBody {
  id: string;
  title: string;
  contentType: string;
  body(ctx: CheckContext): string;
  status: number;
  what: string;
  rules: string[];
}

const UNREADABLE_BODIES: UnreadableBody[] = [
  {
    id: 'orders.create.wrong-content-type',
    title: 'An order body sent as text/plain is refused with 415',
    contentType: 'text/plain',
    body: (ctx) => JSON.stringify(sampleOrder(ctx.unique('ref'))),
    status: 415,
    what: 'for a JSON body sent with Content-Type: text/plain',
    rules: ['R-ERR-10'],
  },
  {
    id: 'orders.create.invalid-json',
    title: 'A body that is not JSON is a 400 problem',
    contentType: 'application/json',
    body: () => '{"reference_id": "unterminated',
    status: 400,
    what: 'for a body that is not JSON',
    rules: ['R-ERR-02', 'R-ERR-04'],
  },
];

function unreadableBodyCheck(c: UnreadableBody): ContractCheck {
  return {
    id: c.id,
    title: c.title,
    modes: BOTH_MODES,
    spec: 'WIRE §2',
    rules: c.rules,
    async run(ctx) {
      const exchange = await ctx.http.send(routeUrl(ctx, 'createOrder'), {
        method: 'POST',
        headers: { ...ctx.systemAuth, 'content-type': c.contentType },
        body: c.body(ctx),
      });
      expectProblem(exchange, c.status, { what: c.what });
    },
  };
}

/** Pretty-printed JSON, `\uXXXX` for every character outside ASCII (Python's `json.dumps` default). */
function asciiEscaped(value: unknown): string {
  return JSON.stringify(value, null, 1).replace(
    /[\u0080-\uffff]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}

/** Every object's keys in reverse order, at every depth. */
function keysReversed(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(keysReversed);
  if (!isObject(value)) return value;
  return Object.fromEntries(
    Object.keys(value)
      .reverse()
      .map((k) => [k, keysReversed(value[k])]),
  );
}

/** The request's content in other serialisations: [what, JSON text]. */
function sameContentTexts(request: OrderRequest): [string, string][] {
  const { order_lines, total_amount, reference_id } = request;
  return [
    ['with the top-level keys in another order', JSON.stringify({ order_lines, total_amount, reference_id })],
    ['with the keys of every nested object in another order', JSON.stringify(keysReversed(request))],
    ['pretty-printed', JSON.stringify(request, null, 2)],
    ['with every non-ASCII character escaped as \\uXXXX', asciiEscaped(request)],
    // JSON allows "\/" for "/"; PHP's json_encode writes every slash so (the URLs' ones here).
    [
      'with every "/" escaped as "\\/" (PHP\'s json_encode default)',
      JSON.stringify(request).replaceAll('/', '\\/'),
    ],
  ];
}

/** A JSON Schema node, as the OpenAPI document states it. */
type Schema = Record<string, unknown>;

/** The schema of the member at `path` (through `properties` and array `items`), if the document defines it. */
function schemaAt(schema: Schema, path: WirePath): Schema | undefined {
  let node: Schema | undefined = schema;
  for (const key of path) {
    if (node === undefined) return undefined;
    node =
      typeof key === 'number'
        ? (node.items as Schema | undefined)
        : ((node.properties as Record<string, Schema> | undefined)?.[key] ?? undefined);
  }
  return node;
}

/** Whether `text` is in a string member's documented domain: every pattern (its own, its allOf's), the length, the format. */
function holdsText(node: Schema, text: string): boolean {
  const patterns = [node, ...((node.allOf as Schema[] | undefined) ?? [])]
    .map((n) => n.pattern)
    .filter((p): p is string => typeof p === 'string');
  const { minLength, maxLength } = node as { minLength?: number; maxLength?: number };
  return (
    patterns.every((p) => new RegExp(p, 'u').test(text)) &&
    text.length >= (minLength ?? 0) &&
    (maxLength === undefined || text.length <= maxLength) &&
    (node.format !== 'uri' || (URL.canParse(text) && !/\s/.test(text)))
  );
}

/** Each vowel with an acute accent, precomposed. */
const ACUTE = { a: '\u00E1', e: '\u00E9', i: '\u00ED', o: '\u00F3', u: '\u00FA' } as const;

/**
 * Texts that a lenient comparison holds as the one sent, each another valid value of its member: in
 * upper case (a case-insensitive collation, MySQL's default), with a trailing space (a PAD SPACE
 * column, or a market that strips its input before comparing) and with an accent (an
 * accent-insensitive collation). Every string member the body has
 * and whose domain admits them (not an enum's value, not a digit string).
 */
function lenientlyEqualTexts(schema: Schema, base: unknown, path: WirePath = []): DomainCase[] {
  const value = getAt(base, path);
  const node = schemaAt(schema, path);
  if (node === undefined) return [];
  if (Array.isArray(value)) return value.length === 0 ? [] : lenientlyEqualTexts(schema, base, [...path, 0]);
  if (isObject(value))
    return Object.keys(value).flatMap((key) => lenientlyEqualTexts(schema, base, [...path, key]));
  if (typeof value !== 'string' || Array.isArray(node.enum)) return [];
  const texts: [string, string][] = [
    [value.toUpperCase(), 'in upper case'],
    [`${value} `, 'with a trailing space'],
  ];
  // An accent on its first vowel: an accent-insensitive collation (MySQL 8's default,
  // utf8mb4_0900_ai_ci, or unaccent()) holds "Ríce cooker" as "Rice cooker". Not in a URL's syntax.
  const accented = value.replace(/[aeiou]/, (vowel) => ACUTE[vowel as keyof typeof ACUTE]);
  if (node.format === undefined) texts.push([accented, 'with an accent on its first vowel']);
  return texts
    .filter(([text]) => text !== value && holdsText(node, text))
    .map(([text, why]) => ({
      label: `${wirePath(path)} = ${JSON.stringify(text)} (${why})`,
      kind: 'pattern' as const,
      path,
      set: [[path, text]] as const,
      valid: true,
    }));
}

/**
 * The request with one member of its content changed, each body still a valid, consistent order:
 * [what, body]. Derived from the create body's schema in the OpenAPI document (R-EP-03 holds for
 * every member the document defines, so a member added later is varied without a change here):
 * every valid value support/domain-cases.ts finds for a member (its bounds, its formats' other
 * forms, amounts past a machine integer), the texts a lenient comparison would take for the sent
 * ones, the amounts re-balanced as domain-values does (R-LINE-05, R-ORDER-01). The order's own
 * reference_id is the key, not content: its cases are left out. A member whose domain holds one
 * value (`measment_unit`, the currency) has no other valid content; test/order-content.test.ts
 * fails when any other member goes unvaried.
 */
export function conflictContents(request: OrderRequest): [string, OrderRequest][] {
  const schema = requestSchema(MARKET_ROUTES.createOrder.modes.at(-1)!, 'createOrder');
  if (schema === undefined) throw new Error('the market document defines no createOrder body');
  const cases = [
    ...domainCases(schema, request).filter((c) => c.valid),
    ...lenientlyEqualTexts(schema, request),
  ].filter((c) => !(c.path.length === 1 && c.path[0] === 'reference_id'));
  const same = canonicalJson(request);
  const out: [string, OrderRequest][] = [];
  for (const c of cases) {
    const body = applyCase(request, c) as OrderRequest;
    balanceOrder(body, c);
    // A change the balancing undid is the same content: a replay, not a conflict.
    if (canonicalJson(body) !== same) out.push([c.label, body]);
  }
  return [...out, splitLines(request)];
}

/** The first line split in two, the same goods and the same total: other lines, so other content. */
function splitLines(request: OrderRequest): [string, OrderRequest] {
  const line = request.order_lines[0]!;
  const unit = BigInt(line.unit_price.value);
  const first = { ...structuredClone(line), quantity: 1, subtotal: { ...line.unit_price } };
  const rest = BigInt(line.quantity) - 1n;
  // A one-piece line cannot be split: the "changed" order would be the same content.
  if (rest < 1n) throw new Error(`the fixture's first line needs a quantity of 2 or more to split`);
  const second = {
    ...structuredClone(line),
    reference_id: `${String(line.reference_id)}-b`,
    quantity: Number(rest),
    subtotal: { ...line.unit_price, value: String(unit * rest) },
  };
  const order = structuredClone(request);
  order.order_lines = [first, second, ...order.order_lines.slice(1)];
  return ['the lines split in two, the same total', order];
}

/**
 * References that a case-insensitive, accent-insensitive or space-padding column (MySQL's default
 * collations) or a Unicode normaliser holds as one: each is its own reference, so its own order.
 */
function lookalikeReferences(reference: string): [string, string][] {
  return [
    ['in upper case', reference.toUpperCase()],
    ['with a trailing space', `${reference} `],
    ['with an accent (café)', `${reference}-caf\u00e9`],
    ['without it (cafe)', `${reference}-cafe`],
    ['with the accent as a combining mark (NFD)', `${reference}-cafe\u0301`],
  ];
}

export const orderCreateChecks: ContractCheck[] = [
  {
    id: 'orders.create.valid',
    title: 'A valid order is created: 201 with id, totalAmount, reference_id and status',
    modes: BOTH_MODES,
    spec: 'WIRE §5',
    rules: ['R-EP-01', 'R-EP-19', 'R-EP-20', 'R-SVC-01', 'R-SVC-08', 'R-SVC-09'],
    async run(ctx) {
      const request = sampleOrder(ctx.unique('ref'));
      const { id, record, exchange } = await createOrder(ctx, request);
      const total = record.totalAmount;
      const sent = request.total_amount;
      ensure(isObject(total) && total.value === sent.value && total.currency === sent.currency, {
        expected:
          '"totalAmount" (camelCase, as the specification names it) equal to the request\'s total_amount',
        exchange,
        spec: 'spec: Order record',
      });
      ensure(record.reference_id === request.reference_id, { expected: '"reference_id" echoed', exchange });
      // R-EP-19: service_status only beside a service status outside the six (a new order's is PENDING).
      ensure(!('service_status' in record), {
        expected:
          'no "service_status" for a new order: the service answered PENDING, one of the six (R-EP-19)',
        actual: `service_status ${JSON.stringify(record.service_status)}`,
        exchange,
        spec: 'WIRE §5, §6',
      });
      ensure(record.status === 'PENDING', {
        expected: `"status": "PENDING" for a new order (one of ${ORDER_STATUSES.join(', ')})`,
        exchange,
        spec: 'WIRE §3',
      });
      const atService = await ctx.sandbox.order(id);
      ensure(atService?.referenceId === request.reference_id, {
        expected: `"id" to be the service's order ID (webhooks carry it as order_id), but the service has no order ${id} for this reference`,
        exchange,
        spec: 'spec: Order record',
      });
    },
  },
  {
    id: 'orders.create.idempotent-replay',
    title:
      'The same reference_id with the same content returns the existing order (200, same id), however the JSON is serialised and whatever its status now',
    modes: BOTH_MODES,
    spec: 'WIRE §5',
    rules: ['R-EP-02'],
    async run(ctx) {
      const request = sampleOrder(ctx.unique('ref'));
      // Text outside ASCII, which a serialiser may write as it is or escape.
      request.order_lines[0]!.name = 'Nồi cơm điện – Rice cooker';
      const first = await createOrder(ctx, request);
      const again = await postOrder(ctx, request);
      expectStatus(again, 200, 'with the existing order for a repeated create request', 'WIRE §5');
      ensure(expectJsonObject(again, 'for a repeated create request').id === first.id, {
        expected: `the existing order ${first.id}`,
        exchange: again,
      });
      // Same content, another serialisation: a retrying client (another language's JSON library)
      // may order keys, space and escape differently at any depth. Each is the same order.
      for (const [what, text] of sameContentTexts(request)) {
        const replay = await postOrder(ctx, undefined, {}, text);
        expectStatus(replay, 200, `for the same content ${what}`, 'WIRE §5');
        ensure(expectJsonObject(replay, `for the same content ${what}`).id === first.id, {
          expected: `the existing order ${first.id} for the same content ${what}`,
          exchange: replay,
          spec: 'WIRE §5',
        });
      }
      // The order has moved on (the provider rejected it): a repeat is still that order, not a new one.
      await ctx.sandbox.reject(first.id);
      await statusReached(ctx, first.id, 'CANCELED');
      const late = await postOrder(ctx, request);
      expectStatus(
        late,
        200,
        'with the existing order for a create repeated after the order was CANCELED',
        'WIRE §5',
      );
      ensure(expectJsonObject(late, 'for a create repeated after the order was CANCELED').id === first.id, {
        expected: `the existing order ${first.id}, though it is CANCELED now`,
        exchange: late,
        spec: 'WIRE §5',
      });
      const atService = await ctx.sandbox.ordersByReference(request.reference_id);
      ensure(atService.length === 1, {
        expected: 'exactly one order at the service for the reference_id',
        actual: `${atService.length} orders at the service`,
      });
    },
  },
  {
    id: 'orders.create.idempotency-conflict',
    title: 'The same reference_id with different content (any member of it) is a 409 problem',
    modes: BOTH_MODES,
    spec: 'WIRE §5',
    rules: ['R-EP-03', 'R-ERR-08'],
    async run(ctx) {
      const request = sampleOrder(ctx.unique('ref'));
      await createOrder(ctx, request);
      // Every member of the content counts, not only the amounts: each change alone, the body valid.
      for (const [what, changed] of conflictContents(request)) {
        const exchange = await postOrder(ctx, changed);
        expectProblem(exchange, 409, {
          what: `for a reused reference_id with other content (${what})`,
          spec: 'WIRE §5',
        });
      }
      const atService = await ctx.sandbox.ordersByReference(request.reference_id);
      ensure(atService.length === 1, {
        expected: 'exactly one order at the service for the reference_id',
        actual: `${atService.length} orders at the service`,
        spec: 'WIRE §5',
      });
    },
  },
  {
    id: 'orders.create.distinct-references',
    title:
      'References that differ only in letter case, a trailing space, an accent or its normal form are different orders (201 each)',
    modes: BOTH_MODES,
    spec: 'WIRE §5',
    rules: ['R-EP-01', 'R-EP-02', 'R-LINE-07'],
    async run(ctx) {
      const reference = ctx.unique('ref-alike');
      const ids = new Map<string, string>();
      const first = await createOrder(ctx, sampleOrder(reference));
      ids.set(first.id, 'the reference itself');
      for (const [what, other] of lookalikeReferences(reference)) {
        const exchange = await postOrder(ctx, sampleOrder(other));
        expectStatus(
          exchange,
          201,
          `for a new order whose reference_id ${JSON.stringify(other)} differs from ${JSON.stringify(reference)} only ${what}`,
          'WIRE §5',
        );
        const record = expectJsonObject(exchange, 'for a created order');
        ensure(record.reference_id === other, {
          expected: `"reference_id" echoed exactly as sent: ${JSON.stringify(other)}`,
          actual: `reference_id ${JSON.stringify(record.reference_id)}`,
          exchange,
          spec: 'WIRE §5',
        });
        const id = String(record.id);
        ensure(!ids.has(id), {
          expected: `a new order for the reference ${what}, not ${ids.get(id)}'s order ${id}`,
          exchange,
          spec: 'WIRE §5',
        });
        ids.set(id, `the reference ${what}`);
      }
    },
  },
  ...UNREADABLE_BODIES.map(unreadableBodyCheck),
];

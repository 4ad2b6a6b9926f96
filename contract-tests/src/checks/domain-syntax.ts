/**
 * The syntax side of every route that takes a JSON body (the route table's `request`, and the
 * webhook): data after the JSON value, a second value, a trailing comma, comments, a cut body,
 * bytes that are not UTF-8 (a lone 0xFF, an overlong form, an encoded surrogate, a cut sequence)
 * and UTF-16 are `invalid_json` 400s that change nothing (WIRE §2); whitespace around the value is
 * JSON and accepted; a byte-order mark, duplicate members and deep nesting may be accepted or
 * refused with a 400 problem, never a 5xx; `application/json` in another case or with parameters is
 * JSON, another media type a 415, a type that only starts with or contains `application/json` included,
 * and no `Content-Type` a 415 or 400 (the webhook reads any). One check per route, its cases a few at a time.
 */
import type { MarketRouteDefinition } from '@bnpl-kit/core/wire';
import { ensure, expectProblem } from '../expect.js';
import type { HttpExchange } from '../http.js';
import { approvedOrder } from '../support/approvals.js';
import { pooled } from '../support/domain-cases.js';
import { createOrder, sampleOrder } from '../support/orders.js';
import { callsOfCheck } from '../support/own-calls.js';
import {
  credentialsFor,
  MARKET_ROUTES,
  type MarketOperation,
  routeLabel,
  routeSlug,
  routesWhere,
  routeUrl,
} from '../support/routes.js';
import { signedInAtService, signedInUser } from '../support/users.js';
import { sendWebhook } from '../support/webhooks.js';
import type { CheckContext, ContractCheck } from '../types.js';
import { ContractViolation } from '../violation.js';

const CONCURRENCY = 4;
const MARKER = 'certify-syntax-marker';
const utf8 = (text: string) => Buffer.from(text, 'utf8');

type Expectation = 'invalid-json' | 'accepted' | 'accepted-or-400' | 'unsupported-media-type' | 'refused';

interface SyntaxCase {
  what: string;
  expect: Expectation;
  /** The bytes sent, from the valid body's JSON text. */
  bytes(json: string): Uint8Array;
  /** The `Content-Type` sent (default `application/json`; `null`: the header left out). */
  contentType?: string | null;
}

/**
 * The media type's syntax (RFC 9110 §8.3): type and subtype are case-insensitive and parameters may
 * follow, so each of these is JSON; another type is a 415 (R-ERR-10). The webhook receiver reads a
 * signed body whatever its label (WIRE §4): there each is accepted, another type accepted or a 415.
 */
const MEDIA_TYPES: readonly [string | null, Expectation][] = [
  ['application/json; charset=utf-8', 'accepted'],
  ['application/json;charset=UTF-8', 'accepted'],
  ['Application/JSON', 'accepted'],
  ['application/json ; charset="utf-8"', 'accepted'],
  ['text/plain; charset=utf-8', 'unsupported-media-type'],
  ['application/x-www-form-urlencoded', 'unsupported-media-type'],
  // Types that only start with, or merely contain, `application/json`: the type is compared whole
  // (a `startswith`, `strpos` or `includes` test lets these through).
  ['application/jsonp', 'unsupported-media-type'],
  ['application/json-seq', 'unsupported-media-type'],
  ['text/plain; profile="application/json"', 'unsupported-media-type'],
  // No label at all is not JSON either (a parser that reads any body "as JSON" takes it): refused,
  // as a 415 or a 400, either way unread.
  [null, 'refused'],
];

/** The valid body's JSON with bytes in place of an extra member's value (unknown members are ignored). */
function withNote(json: string, note: Uint8Array): Uint8Array {
  const [before, after] = json.replace(/}$/, `,"note":"${MARKER}"}`).split(MARKER) as [string, string];
  return Buffer.concat([utf8(before), note, utf8(after)]);
}

/** The valid body's JSON with `text` as the value of an extra member, written as it stands. */
function withValue(json: string, text: string): Uint8Array {
  return utf8(json.replace(/}$/, `,"note":${text}}`));
}

/**
 * What lenient parsers take beyond RFC 8259's grammar, each in an extra member (so only the syntax
 * decides): Python's json.loads reads NaN and Infinity, Json.NET and JSON5 read hexadecimal,
 * single quotes, names without quotes and raw control characters, YAML reads `True`. None is JSON.
 */
const BEYOND_THE_GRAMMAR: readonly [string, (json: string) => Uint8Array][] = [
  ['NaN as a number (Python json.loads)', (j) => withValue(j, 'NaN')],
  ['Infinity as a number', (j) => withValue(j, 'Infinity')],
  ['-Infinity as a number', (j) => withValue(j, '-Infinity')],
  ['a number with a leading zero (01)', (j) => withValue(j, '01')],
  ['a number with a plus sign (+1)', (j) => withValue(j, '+1')],
  ['a number without digits before its point (.5)', (j) => withValue(j, '.5')],
  ['a number without digits after its point (1.)', (j) => withValue(j, '1.')],
  ['a hexadecimal number (0x1F)', (j) => withValue(j, '0x1F')],
  ["a string in single quotes ('a')", (j) => withValue(j, "'a'")],
  ['a member name without quotes', (j) => utf8(j.replace(/}$/, ',note:1}'))],
  ['a raw tab inside a string', (j) => withValue(j, '"a\tb"')],
  ['an unknown escape in a string (\\q)', (j) => withValue(j, '"\\q"')],
  ['a \\u escape with two hex digits', (j) => withValue(j, '"\\u12"')],
  ['True for true', (j) => withValue(j, 'True')],
];

function nested(depth: number): string {
  return `${'['.repeat(depth)}${']'.repeat(depth)}`;
}

const CASES: SyntaxCase[] = [
  { what: 'data after the JSON value', expect: 'invalid-json', bytes: (j) => utf8(`${j} xyz`) },
  { what: 'a second JSON value after the first', expect: 'invalid-json', bytes: (j) => utf8(`${j}${j}`) },
  { what: 'a closing bracket after the value', expect: 'invalid-json', bytes: (j) => utf8(`${j}]`) },
  {
    what: 'a trailing comma in the object',
    expect: 'invalid-json',
    bytes: (j) => utf8(j.replace(/}$/, ',}')),
  },
  { what: 'a comment before the value', expect: 'invalid-json', bytes: (j) => utf8(`/* note */${j}`) },
  { what: 'the body cut one byte short', expect: 'invalid-json', bytes: (j) => utf8(j.slice(0, -1)) },
  ...BEYOND_THE_GRAMMAR.map(([what, bytes]): SyntaxCase => ({ what, expect: 'invalid-json', bytes })),
  {
    what: 'a lone 0xFF byte in a string',
    expect: 'invalid-json',
    bytes: (j) => withNote(j, Buffer.from([0xff])),
  },
  {
    what: 'an overlong UTF-8 form (0xC0 0xAF for "/")',
    expect: 'invalid-json',
    bytes: (j) => withNote(j, Buffer.from([0xc0, 0xaf])),
  },
  {
    what: 'a UTF-16 surrogate encoded as UTF-8 (0xED 0xA0 0x80)',
    expect: 'invalid-json',
    bytes: (j) => withNote(j, Buffer.from([0xed, 0xa0, 0x80])),
  },
  {
    what: 'a multi-byte sequence cut short (0xE1 0xBB)',
    expect: 'invalid-json',
    bytes: (j) => withNote(j, Buffer.from([0x61, 0xe1, 0xbb])),
  },
  {
    what: 'the body in UTF-16LE with its byte-order mark',
    expect: 'invalid-json',
    bytes: (j) => Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(j, 'utf16le')]),
  },
  { what: 'whitespace around the value', expect: 'accepted', bytes: (j) => utf8(`\r\n\t ${j} \n`) },
  {
    what: 'Vietnamese text in an extra member',
    expect: 'accepted',
    bytes: (j) => withNote(j, utf8('Nguyễn Thị Đặng – đơn hàng 🛵')),
  },
  {
    what: 'a UTF-8 byte-order mark before the value',
    expect: 'accepted-or-400',
    bytes: (j) => Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), utf8(j)]),
  },
  {
    what: 'a duplicated extra member',
    expect: 'accepted-or-400',
    bytes: (j) => utf8(j.replace(/}$/, ',"note":"a","note":"b"}')),
  },
  {
    what: 'an extra member nested 10000 arrays deep',
    expect: 'accepted-or-400',
    bytes: (j) => utf8(j.replace(/}$/, `,"note":${nested(10_000)}}`)),
  },
  ...MEDIA_TYPES.map(
    ([type, expect]): SyntaxCase => ({
      what: type === null ? 'no Content-Type' : `Content-Type: ${type}`,
      expect,
      contentType: type,
      bytes: (j) => utf8(j),
    }),
  ),
];

interface Target {
  /** A valid body now (a fresh reference each call where the route needs one). */
  body(): unknown;
  send(bytes: Uint8Array, contentType?: string | null): Promise<HttpExchange>;
  /** Service operation a refused body must not have called. */
  serviceOperation?: string;
  /** The orders the route's requests act on (the disburse route's). */
  orderIds?: readonly string[];
}

/** What each route needs to take a valid body: where the route table has no fixture, certify's own. */
async function targetFor(ctx: CheckContext, operation: MarketOperation): Promise<Target> {
  const route = MARKET_ROUTES[operation] as MarketRouteDefinition;
  if (route.auth === 'webhook-signature') {
    const order = await createOrder(ctx);
    return {
      // PENDING again: a status the order has at the service, so an accepted case moves nothing.
      body: () => ({ type: 'BNPL_ORDER_STATUS_UPDATED', order_id: order.id, order_status: 'PENDING' }),
      send: async (bytes, contentType) =>
        (
          await sendWebhook(
            ctx,
            bytes,
            contentType === null
              ? { dropHeaders: ['Content-Type'] }
              : contentType
                ? { headers: { 'Content-Type': contentType } }
                : {},
          )
        ).exchange,
    };
  }
  const credentials = await credentialsFor(ctx, route.auth);
  const post = (url: string) => (bytes: Uint8Array, contentType?: string | null) =>
    ctx.http.send(url, {
      method: 'POST',
      body: bytes,
      headers:
        contentType === null
          ? credentials
          : { ...credentials, 'content-type': contentType ?? 'application/json' },
    });
  switch (operation) {
    case 'createOrder':
      return {
        body: () => sampleOrder(ctx.unique('ref-syntax')),
        send: post(routeUrl(ctx, operation)),
        serviceOperation: 'createOrder',
      };
    case 'disburseOrder': {
      const id = await approvedOrder(ctx);
      return {
        body: () => ({ invoice: { number: 'INV-1', url: 'https://shop.example/invoices/1' } }),
        send: post(routeUrl(ctx, operation, { id })),
        serviceOperation: 'disburseOrder',
        orderIds: [id],
      };
    }
    case 'pushClaims': {
      const { user, credifyId } = await signedInAtService(ctx);
      return {
        body: () => ({ id: user.id, credify_id: credifyId }),
        send: post(routeUrl(ctx, operation)),
        serviceOperation: 'pushClaimTokens',
      };
    }
    default: {
      const user = await signedInUser(ctx).catch(() => undefined);
      return {
        body: () => ({
          local_id: user?.id ?? 'certify-user',
          offers: [{ code: 'any', conditions: [], required_custom_scopes: [] }],
        }),
        send: post(routeUrl(ctx, operation)),
      };
    }
  }
}

/**
 * A body that was read is answered as the route answers valid input: 2xx, or (for an action on an
 * order, whose earlier case may have paid it) the 409 of its state.
 */
function judge(
  c: SyntaxCase,
  exchange: HttpExchange,
  label: string,
  stateful: boolean,
  webhook: boolean,
): void {
  const what = `for ${label} with ${c.what}`;
  if (c.expect === 'unsupported-media-type' && (!webhook || exchange.status === 415)) {
    // The webhook may refuse another label with a 415 too (as webhook.wrong-content-type allows).
    expectProblem(exchange, 415, { what, code: 'unsupported_media_type', spec: 'WIRE §2' });
    return;
  }
  if (c.expect === 'refused' && (!webhook || exchange.status === 415 || exchange.status === 400)) {
    const status = exchange.status === 400 ? 400 : 415;
    expectProblem(exchange, status, { what: `(a 415 or a 400) ${what}`, spec: 'WIRE §2' });
    return;
  }
  if (stateful && c.expect !== 'invalid-json' && exchange.status === 409) {
    expectProblem(exchange, 409, { what: `${what} (a state conflict after reading it)`, spec: 'WIRE §5' });
    return;
  }
  if (c.expect === 'invalid-json') {
    expectProblem(exchange, 400, { what, code: 'invalid_json', spec: 'WIRE §2' });
    return;
  }
  if (c.expect === 'accepted' || exchange.status < 300) {
    ensure(exchange.status >= 200 && exchange.status < 300, {
      expected: `a 2xx ${what} (JSON allows it)`,
      exchange,
      spec: 'WIRE §2',
    });
    return;
  }
  expectProblem(exchange, 400, { what: `(or a 2xx) ${what}`, spec: 'WIRE §2' });
}

function syntaxCheck(operation: MarketOperation): ContractCheck {
  const route = MARKET_ROUTES[operation] as MarketRouteDefinition;
  const label = routeLabel(operation);
  return {
    id: `syntax.${routeSlug(operation)}`,
    title: `${label}: data after the value, non-UTF-8 bytes and other syntax edges are invalid_json 400s; what JSON allows is accepted, as is application/json with parameters or in another case${route.auth === 'webhook-signature' ? '' : ', and another media type is a 415'}`,
    modes: route.modes,
    spec: 'WIRE §2',
    rules:
      route.auth === 'webhook-signature' ? ['R-WH-17', 'R-ERR-03'] : ['R-ERR-03', 'R-ERR-04', 'R-ERR-10'],
    async run(ctx) {
      const target = await targetFor(ctx, operation);
      const webhookRoute = route.auth === 'webhook-signature';
      const since = await ctx.sandbox.lastCallId();
      const run = (cases: SyntaxCase[]) =>
        pooled(cases, CONCURRENCY, async (c) => {
          const exchange = await target.send(c.bytes(JSON.stringify(target.body())), c.contentType);
          try {
            judge(c, exchange, label, route.problems.includes('invalid_transition'), webhookRoute);
            return undefined;
          } catch (error) {
            const expected = error instanceof ContractViolation ? error.expected : String(error);
            const rule = c.contentType !== undefined ? 'R-ERR-10' : webhookRoute ? 'R-WH-17' : 'R-ERR-03';
            return `  [${rule}] ${c.what}: expected ${expected}; got HTTP ${exchange.status} ${exchange.text.slice(0, 240)}`;
          }
        });
      const refused = CASES.filter(
        (c) =>
          c.expect === 'invalid-json' ||
          ((c.expect === 'unsupported-media-type' || c.expect === 'refused') && !webhookRoute),
      );
      const failures = (await run(refused)).filter((f) => f !== undefined);
      if (target.serviceOperation !== undefined) {
        const calls = callsOfCheck(await ctx.sandbox.serviceCalls(since), target.orderIds ?? []).filter(
          (c) => c.operation === target.serviceOperation,
        );
        if (calls.length > 0)
          failures.push(
            `  [R-ERR-03] ${calls.length} body/bodies that are not JSON reached the service (${target.serviceOperation})`,
          );
      }
      failures.push(...(await run(CASES.filter((c) => !refused.includes(c)))).filter((f) => f !== undefined));
      if (failures.length > 0)
        throw new ContractViolation({
          expected: `every syntax case of ${label} answered as WIRE §2 says; ${failures.length} of ${CASES.length} were not:\n${failures.slice(0, 5).join('\n')}`,
          actual: 'the cases listed',
          spec: 'WIRE §2',
        });
    },
  };
}

/** Every route that reads a JSON body: a `request` in the route table, or the webhook's event. */
export const domainSyntaxChecks: ContractCheck[] = routesWhere(
  (route) => route.method === 'POST' && (route.request !== undefined || route.auth === 'webhook-signature'),
).map(syntaxCheck);

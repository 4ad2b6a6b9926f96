/**
 * Every field rule of every market request body, checked over its whole documented domain
 * (support/domain-cases.ts derives the cases from the OpenAPI document the route table emits): one
 * check per endpoint and rule, whose cases run a few at a time. A value outside the domain is a 400
 * problem naming the field, and nothing reaches the service; a value inside it (the largest ones,
 * past a 32-bit integer, included) is accepted and kept exactly as sent.
 */
import type { JsonSchema } from '@bnpl-kit/core/openapi';
import { ensure, expectProblem, isObject, problemPaths } from '../expect.js';
import type { HttpExchange } from '../http.js';
import { approvedOrder } from '../support/approvals.js';
import {
  ABSENT,
  applyCase,
  type DomainCase,
  domainCases,
  getAt,
  pooled,
  requestRules,
  requestSchema,
  setAt,
  type WirePath,
  wirePath,
} from '../support/domain-cases.js';
import { sampleOrder } from '../support/orders.js';
import { callsOfCheck } from '../support/own-calls.js';
import {
  credentialsFor,
  MARKET_ROUTES,
  type MarketOperation,
  routeLabel,
  routeUrl,
} from '../support/routes.js';
import { signedInUser } from '../support/users.js';
import type { CheckContext, ContractCheck } from '../types.js';
import { ContractViolation } from '../violation.js';

/** Requests in flight at once: enough to finish quickly, few enough for a small market. */
const CONCURRENCY = 4;
/** Failing cases a failure message lists. */
const SHOWN = 5;

/** What an endpoint needs to run its cases: a valid body now, and how to send one. */
interface Prepared {
  base: unknown;
  send(body: unknown): Promise<HttpExchange>;
  /** Service calls that refused cases must not have made (`createOrder`, `disburseOrder`). */
  serviceOperation?: string;
  /** The order the cases act on, when they act on one. */
  orderId?: string;
}

interface BodyEndpoint {
  operation: MarketOperation;
  slug: string;
  /** The valid body the cases are derived around (the fixture, or a stand-in for runtime values). */
  fixture: unknown;
  /** The rule of docs/protocol.md a case breaks or keeps. */
  ruleOf(c: DomainCase): string;
  /** Rules every check of the endpoint also applies. */
  alsoRules: readonly string[];
  /**
   * Which valid cases run: each on its own, combined (an action: one value of each field per
   * request, a fresh order per request, until every value went), or none.
   */
  validCases: 'each' | 'combined' | 'none';
  /** Keeps the body consistent where JSON Schema cannot say (sums, the lines' arithmetic). */
  balance?(body: unknown, c: DomainCase): void;
  /** The runtime values the fixture stands in for. */
  prepare(ctx: CheckContext): Promise<Prepared>;
  /** After valid cases were accepted: what must hold (echoed exactly, an effect). */
  afterValid?(ctx: CheckContext, c: DomainCase, body: unknown, exchange: HttpExchange): Promise<void> | void;
}

/** References shorter than this cannot carry a unique part: a run may meet one it sent before. */
const MIN_UNIQUE_REFERENCE = 16;

/** The reference of the order the create cases are derived around. */
const FIXTURE_REFERENCE = 'fixture';

/** The order fixture's amounts, where a case sets one: the arithmetic rules make the rest follow. */
const AMOUNT_VALUE = /^(total_amount|order_lines\[0\]\.(unit_price|subtotal))\.value$/;

/** What a lenient reader takes a digit-ish text for ("0300000" → 300000), or undefined. */
function leniently(value: unknown): bigint | undefined {
  if (typeof value === 'number' && Number.isInteger(value)) return BigInt(value);
  if (typeof value === 'boolean') return value ? 1n : 0n;
  if (typeof value !== 'string') return undefined;
  const digits = /^\s*\+?0*(\d+)(\.0*)?(e0)?\s*$/.exec(value.replace(/\0$/, ''))?.[1];
  return digits === undefined ? undefined : BigInt(digits);
}

/**
 * R-LINE-05 and R-ORDER-01 (subtotal = quantity × unit price, total = Σ subtotals): a case that
 * sets a quantity or an amount gets the other amounts a lenient market would compute, so the case
 * breaks (or keeps) its own rule only, and a market that misreads the value accepts it. (Also the
 * idempotency-conflict check's: its other contents stay valid orders.)
 */
export function balanceOrder(body: unknown, c: DomainCase): void {
  if (!isObject(body) || !Array.isArray(body.order_lines)) return;
  const where = wirePath(c.path);
  const set = new Set(c.set.map(([p]) => wirePath(p)));
  const lines = body.order_lines as Record<string, unknown>[];
  if (AMOUNT_VALUE.test(where) && c.kind !== 'required') {
    // One line of quantity 1: its unit price, its subtotal and the total are the same amount.
    const amount = leniently(getAt(body, c.path));
    const original = structuredClone(lines[0]);
    body.order_lines = lines.slice(0, 1);
    const line = (body.order_lines as Record<string, unknown>[])[0];
    if (!isObject(line)) return;
    line.quantity = 1;
    for (const path of [
      ['total_amount', 'value'],
      ['order_lines', 0, 'unit_price', 'value'],
      ['order_lines', 0, 'subtotal', 'value'],
    ] as WirePath[]) {
      if (!set.has(wirePath(path)) && amount !== undefined) setAt(body, path, amount.toString());
    }
    // A free line (an amount of 0): a second, paid line keeps the total above 0, as WIRE §1 asks.
    if (amount === 0n && !set.has('total_amount.value') && isObject(original)) {
      const paid = { value: '100000', currency: 'VND' };
      (body.order_lines as unknown[]).push({
        ...original,
        reference_id: `${String(original.reference_id)}-paid`,
        quantity: 1,
        unit_price: paid,
        subtotal: { ...paid },
      });
      setAt(body, ['total_amount', 'value'], paid.value);
    }
    return;
  }
  let total = 0n;
  for (const [i, line] of lines.entries()) {
    if (!isObject(line)) return;
    const quantity = leniently(line.quantity);
    const unit = isObject(line.unit_price) ? leniently(line.unit_price.value) : undefined;
    if (quantity === undefined || unit === undefined || !isObject(line.subtotal)) return;
    if (!set.has(`order_lines[${i}].subtotal.value`)) line.subtotal.value = (quantity * unit).toString();
    total += leniently(line.subtotal.value) ?? 0n;
  }
  if (
    isObject(body.total_amount) &&
    !set.has('total_amount.value') &&
    ![...set].some((p) => p.startsWith('total_amount'))
  )
    body.total_amount.value = total.toString();
}

/**
 * Every case its own reference: the market keeps orders between runs (a basic run, then a
 * data-sharing one, on one database), and a reference it already holds answers 200 with the old
 * order. A case about the reference itself keeps its length and its tail (what the case is about,
 * e.g. 255 characters); only its head, the fixture's name, becomes unique.
 */
function uniqueReference(ctx: CheckContext, reference: unknown): unknown {
  if (typeof reference !== 'string' || !reference.startsWith(FIXTURE_REFERENCE)) return reference;
  const unique = ctx.unique('ref-domain');
  if (reference === FIXTURE_REFERENCE) return unique;
  // Lengths in characters (code points), as the bound counts them: an emoji filler is one.
  const tail = [...reference.slice(FIXTURE_REFERENCE.length)];
  const length = [...reference].length;
  // A length case's tail is one letter, digit or symbol repeated (support/domain-cases.ts:
  // `resized`, and the maximum in multi-byte or astral characters): the length is kept by taking
  // that filler from it; any other tail (a NUL, a space) is kept whole.
  const filler = /^([\p{L}\p{N}\p{So}])\1*$/iu.test(tail.join(''));
  if (!filler) return `${unique}${tail.join('')}`;
  const excess = unique.length + tail.length - length;
  return excess <= 0
    ? unique + tail[0]!.repeat(length - tail.length - unique.length) + tail.join('')
    : unique + tail.slice(Math.min(excess, tail.length)).join('');
}

const ORDER_RULES: [RegExp, string][] = [
  [/\.currency$/, 'R-MONEY-01'],
  [/\.value$/, 'R-MONEY-02'],
  [/^total_amount$/, 'R-ORDER-01'],
  [/quantity$/, 'R-LINE-04'],
  [/measment_unit$/, 'R-LINE-02'],
  [/_url$/, 'R-LINE-06'],
  [/(^|\.)(name|reference_id)$/, 'R-LINE-07'],
  [/^order_lines/, 'R-LINE-01'],
];

const INVOICE = {
  number: 'INV-1',
  url: 'https://shop.example/invoices/1',
  issued_at: '2026-01-15T09:30:00Z',
};

const ENDPOINTS: BodyEndpoint[] = [
  {
    operation: 'createOrder',
    slug: 'create',
    fixture: sampleOrder(FIXTURE_REFERENCE),
    ruleOf: (c) =>
      c.kind === 'consistent'
        ? 'R-ORDER-02'
        : (ORDER_RULES.find(([re]) => re.test(wirePath(c.path)))?.[1] ?? 'R-ORDER-03'),
    alsoRules: ['R-ORDER-03', 'R-ERR-03', 'R-ERR-04'],
    validCases: 'each',
    balance: balanceOrder,
    async prepare(ctx) {
      const headers = await credentialsFor(ctx, MARKET_ROUTES.createOrder.auth);
      return {
        base: sampleOrder(FIXTURE_REFERENCE),
        serviceOperation: 'createOrder',
        send: (body) => {
          if (isObject(body)) body.reference_id = uniqueReference(ctx, body.reference_id);
          return ctx.http.send(routeUrl(ctx, 'createOrder'), { method: 'POST', json: body, headers });
        },
      };
    },
    afterValid(_ctx, c, body, exchange) {
      // A reference too short to be unique (the minimum's case) may already be the market's from
      // an earlier run on the same database: then the same body is answered 200 with it (R-EP-02).
      const reference = isObject(body) ? String(body.reference_id) : '';
      const replay = reference.length < MIN_UNIQUE_REFERENCE && exchange.status === 200;
      ensure(exchange.status === 201 || replay, {
        expected: `201 for a valid order whose ${c.label}`,
        exchange,
        spec: 'WIRE §1, §5',
      });
      const record = exchange.json();
      const sent = (body as { total_amount: { value: string } }).total_amount.value;
      const got = isObject(record) && isObject(record.totalAmount) ? record.totalAmount.value : undefined;
      ensure(got === sent, {
        expected: `the order record to carry totalAmount.value "${sent}" exactly as sent (${c.label})`,
        actual: `totalAmount.value ${JSON.stringify(got)}`,
        exchange,
        spec: 'WIRE §1',
      });
    },
  },
  {
    operation: 'disburseOrder',
    slug: 'disburse',
    fixture: { invoice: INVOICE },
    ruleOf: () => 'R-EP-10',
    alsoRules: ['R-ERR-03', 'R-ERR-04'],
    validCases: 'combined',
    async prepare(ctx) {
      const id = await approvedOrder(ctx);
      const headers = await credentialsFor(ctx, MARKET_ROUTES.disburseOrder.auth);
      return {
        base: { invoice: INVOICE },
        serviceOperation: 'disburseOrder',
        orderId: id,
        send: (body) =>
          ctx.http.send(routeUrl(ctx, 'disburseOrder', { id }), { method: 'POST', json: body, headers }),
      };
    },
    afterValid(_ctx, c, _body, exchange) {
      ensure(exchange.status === 202, {
        expected: `202 for a disburse whose invoice holds ${c.label}`,
        exchange,
        spec: 'WIRE §5',
      });
    },
  },
  {
    operation: 'pushClaims',
    slug: 'push-claims',
    fixture: { id: 'user', credify_id: 'crf-user' },
    ruleOf: () => 'R-EP-12',
    alsoRules: ['R-ERR-03', 'R-ERR-04'],
    validCases: 'none',
    async prepare(ctx) {
      const user = await signedInUser(ctx);
      const headers = await credentialsFor(ctx, MARKET_ROUTES.pushClaims.auth);
      return {
        base: { id: user.id, credify_id: `crf-${ctx.unique('domain')}` },
        serviceOperation: 'pushClaimTokens',
        send: (body) => ctx.http.send(routeUrl(ctx, 'pushClaims'), { method: 'POST', json: body, headers }),
      };
    },
  },
  {
    operation: 'filterOffers',
    slug: 'offer-filter',
    fixture: { local_id: 'user', offers: [{ code: 'any', conditions: [], required_custom_scopes: [] }] },
    ruleOf: () => 'R-OFFER-01',
    alsoRules: ['R-ERR-03', 'R-ERR-04'],
    validCases: 'none',
    async prepare(ctx) {
      const user = await signedInUser(ctx);
      const headers = await credentialsFor(ctx, MARKET_ROUTES.filterOffers.auth);
      return {
        base: { local_id: user.id, offers: [{ code: 'any', conditions: [], required_custom_scopes: [] }] },
        send: (body) => ctx.http.send(routeUrl(ctx, 'filterOffers'), { method: 'POST', json: body, headers }),
      };
    },
  },
];

interface Outcome {
  c: DomainCase;
  body: unknown;
  exchange?: HttpExchange;
  violation?: string;
}

/** A refusal must be a 400 problem whose errors name the case's field (or one around it). */
function expectRefused(c: DomainCase, exchange: HttpExchange): void {
  const problem = expectProblem(exchange, 400, {
    what: `for a body whose ${c.label}`,
    code: 'validation_failed',
  });
  const field = wirePath(c.path);
  const fields = [field, ...(c.alternatives ?? []).map(wirePath)];
  const paths = problemPaths(problem);
  const related = (p: string) =>
    fields.some((f) => p === f || f.startsWith(`${p}.`) || f.startsWith(`${p}[`) || p.startsWith(f));
  // The body itself (`(body)`) as another JSON type: whatever the refusal names lies inside it.
  ensure(c.path.length === 0 || paths.some(related), {
    expected: `errors[].path to name ${fields.join(' or ')} (or a field around it) for a body whose ${c.label}`,
    actual: `paths ${JSON.stringify(paths)}`,
    exchange,
    spec: 'WIRE §2',
  });
}

function describe(outcomes: readonly Outcome[], rule: string): string {
  const failed = outcomes.filter((o) => o.violation !== undefined);
  const lines = failed.slice(0, SHOWN).map((o) => `  [${rule}] ${o.c.label}: ${o.violation}`);
  const more = failed.length > SHOWN ? `\n  … and ${failed.length - SHOWN} more case(s)` : '';
  return `${failed.length} of ${outcomes.length} case(s) broke ${rule}:\n${lines.join('\n')}${more}`;
}

function violationText(error: unknown): string {
  if (error instanceof ContractViolation)
    return `expected ${error.expected}; got ${error.actual.slice(0, 400)}`;
  return error instanceof Error ? error.message : String(error);
}

async function runCases(ctx: CheckContext, endpoint: BodyEndpoint, rule: string, cases: DomainCase[]) {
  const prepared = await endpoint.prepare(ctx);
  const bodyOf = (c: DomainCase) => {
    const body = applyCase(prepared.base, c);
    endpoint.balance?.(body, c);
    return body;
  };
  const invalid = cases.filter((c) => !c.valid);
  const since = await ctx.sandbox.lastCallId();
  const outcomes: Outcome[] = await pooled(invalid, CONCURRENCY, async (c) => {
    const body = bodyOf(c);
    const exchange = await prepared.send(body);
    try {
      expectRefused(c, exchange);
      return { c, body, exchange };
    } catch (error) {
      return { c, body, exchange, violation: violationText(error) };
    }
  });
  if (outcomes.some((o) => o.violation !== undefined))
    throw new ContractViolation({
      expected: `every case refused as documented. ${describe(outcomes, rule)}`,
      actual: 'the cases listed',
      spec: 'WIRE §1, §2, §5',
    });
  if (prepared.serviceOperation !== undefined) {
    const calls = callsOfCheck(
      await ctx.sandbox.serviceCalls(since),
      prepared.orderId === undefined ? [] : [prepared.orderId],
    ).filter((call) => call.operation === prepared.serviceOperation);
    ensure(calls.length === 0, {
      expected: `none of ${invalid.length} refused ${routeLabel(endpoint.operation)} bodies (${rule}) to reach the service`,
      actual: `${calls.length} ${prepared.serviceOperation} call(s) at the service, e.g. ${calls[0]?.body?.slice(0, 200)}`,
      spec: 'WIRE §1',
    });
  }
  const valid = cases.filter((c) => c.valid);
  if (valid.length === 0 || endpoint.validCases === 'none') return;
  const accept = async (target: Prepared, c: DomainCase): Promise<Outcome> => {
    const body = bodyOf(c);
    const exchange = await target.send(body);
    try {
      await endpoint.afterValid?.(ctx, c, body, exchange);
      return { c, body, exchange };
    } catch (error) {
      return { c, body, exchange, violation: violationText(error) };
    }
  };
  const accepted: Outcome[] = [];
  if (endpoint.validCases === 'each')
    accepted.push(...(await pooled(valid, CONCURRENCY, (c) => accept(prepared, c))));
  // An action takes one valid body per order: every valid value still goes once, in rounds of one
  // value per field, each round on a fresh order (the last value per field alone left most unsent).
  else
    for (const [i, round] of rounds(valid).entries())
      accepted.push(await accept(i === 0 ? prepared : await endpoint.prepare(ctx), round));
  if (accepted.some((o) => o.violation !== undefined))
    throw new ContractViolation({
      expected: `every valid case accepted as documented. ${describe(accepted, rule)}`,
      actual: 'the cases listed',
      spec: 'WIRE §1, §5',
    });
}

/** Whether two wire paths are one, or one lies inside the other (`invoice` and `invoice.url`). */
function overlapping(a: string, b: string): boolean {
  const inside = (x: string, y: string) => x.startsWith(`${y}.`) || x.startsWith(`${y}[`);
  return a === b || inside(a, b) || inside(b, a);
}

/**
 * The valid cases in rounds: round i sets the i-th valid value of every field at once. A case that
 * leaves a member out goes to a round that sets nothing inside that member (`invoice` left out
 * alone, not beside a value of `invoice.number`), each case in the first round it fits.
 */
function rounds(cases: readonly DomainCase[]): DomainCase[] {
  const placed: DomainCase[][] = [];
  const fields = (c: DomainCase) => c.set.map(([path]) => wirePath(path));
  for (const c of cases) {
    const fits = (round: DomainCase[]) =>
      !round.some((other) => fields(other).some((a) => fields(c).some((b) => overlapping(a, b))));
    const round = placed.find(fits);
    if (round === undefined) placed.push([c]);
    else round.push(c);
  }
  return placed.map((round) => ({
    label: round.map((c) => c.label).join('; '),
    kind: 'bound',
    path: [],
    set: round.flatMap((c) => c.set),
    valid: true,
  }));
}

function endpointChecks(endpoint: BodyEndpoint): ContractCheck[] {
  const route = MARKET_ROUTES[endpoint.operation];
  // Every mode's document states the same body; the widest mode serving the route derives it.
  const mode = route.modes.at(-1)!;
  const schema: JsonSchema | undefined = requestSchema(mode, endpoint.operation);
  if (schema === undefined) return [];
  const byRule = new Map<string, DomainCase[]>();
  for (const c of domainCases(schema, endpoint.fixture, { rules: requestRules(mode, endpoint.operation) })) {
    const rule = endpoint.ruleOf(c);
    byRule.set(rule, [...(byRule.get(rule) ?? []), c]);
  }
  return [...byRule.entries()].map(([rule, cases]) => ({
    id: `domain.${endpoint.slug}.${rule.toLowerCase().replace(/^r-/, '')}`,
    title: `${routeLabel(endpoint.operation)}: ${cases.length} cases of ${rule}'s domain (${[...new Set(cases.map((c) => c.kind))].join(', ')}) are answered as documented`,
    modes: route.modes,
    spec: 'WIRE §1, §2, §5',
    rules: [rule, ...endpoint.alsoRules.filter((r) => r !== rule)],
    run: (ctx) => runCases(ctx, endpoint, rule, cases),
  }));
}

export const domainValueChecks: ContractCheck[] = ENDPOINTS.flatMap(endpointChecks);

export { ABSENT };

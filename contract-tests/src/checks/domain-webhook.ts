/**
 * Every field rule of every webhook event body, over its whole documented domain: the cases come
 * from the event schemas of the market's OpenAPI document (`receiveWebhook`'s body, one branch per
 * event `type`), walked with one valid event of each type by support/domain-cases.ts, as the request
 * bodies of domain-values.ts are. Certify signs each case itself (it holds the sandbox's key), so
 * only the body is wrong. The answers, per protocol:
 *
 * - a validly signed body outside its event's schema is a 400 (R-WH-17): a member missing, another
 *   JSON type, an ID or text past its bound or holding a control character, an `order_status` empty
 *   or longer than 64 characters (R-SVC-14);
 * - one inside it is acknowledged, `200 {"received":true}` (R-WH-13): the longest IDs and texts, an
 *   integer ID up to 2^53 − 1 (R-SVC-12), and an `order_status` of 64 characters, which names no
 *   status of the six and so is acknowledged and moves nothing (R-SVC-10).
 *
 * `type` itself is left alone: it chooses the schema, and one outside the known types is
 * acknowledged (R-WH-06), so no case can break it and keep the rest of the event meaningful.
 */
import type { JsonSchema } from '@bnpl-kit/core/openapi';
import { ensure, expectProblem } from '../expect.js';
import type { HttpExchange } from '../http.js';
import {
  applyCase,
  type DomainCase,
  domainCases,
  pooled,
  requestRules,
  requestSchema,
} from '../support/domain-cases.js';
import { createOrder, marketStatus } from '../support/orders.js';
import { expectAck, sendWebhook } from '../support/webhooks.js';
import { BOTH_MODES, type CheckContext, type ContractCheck } from '../types.js';
import { ContractViolation } from '../violation.js';

/** Events in flight at once. */
const CONCURRENCY = 4;
/** Failing cases a failure message lists. */
const SHOWN = 6;

export interface EventDomain {
  /** Check ID suffix. */
  slug: string;
  /** The valid events the cases are derived around, `order` standing in for a real order's ID. */
  fixtures: readonly Record<string, unknown>[];
  /** The rules the check applies besides R-WH-17 and R-WH-13. */
  alsoRules: readonly string[];
  /** Whether the fixtures name an order the market holds (created for the run, PENDING). */
  needsOrder: boolean;
}

const ORDER = '(order)';

export const WEBHOOK_EVENT_DOMAINS: readonly EventDomain[] = [
  {
    slug: 'order-status',
    fixtures: [
      { type: 'BNPL_ORDER_STATUS_UPDATED', order_id: ORDER, order_status: 'PENDING' },
      // The integer form of an order ID (R-SVC-12), walked for its own bounds.
      { type: 'BNPL_ORDER_STATUS_UPDATED', order_id: 90210, order_status: 'PENDING' },
    ],
    alsoRules: ['R-SVC-10', 'R-SVC-12', 'R-SVC-14'],
    needsOrder: true,
  },
  {
    slug: 'disbursement-requirement',
    // is_fulfilled: false confirms nothing (R-STATE-07), so no case is a readiness.
    fixtures: [
      { type: 'BNPL_DISBURSEMENT_REQUIREMENT_STATUS_UPDATED', order_id: ORDER, is_fulfilled: false },
      { type: 'BNPL_DISBURSEMENT_REQUIREMENT_STATUS_UPDATED', order_id: 90210, is_fulfilled: false },
    ],
    alsoRules: ['R-SVC-12'],
    needsOrder: true,
  },
  {
    slug: 'offer-transaction',
    fixtures: [
      {
        type: 'OFFER_TRANSACTION_STATUS_UPDATED',
        transaction_id: 'txn-domain',
        credify_id: 'crf-domain',
        transaction_status: 'COMPLETED',
        offer_code: 'offer-domain',
      },
      {
        type: 'OFFER_TRANSACTION_DISPUTE_STATUS_UPDATED',
        transaction_id: 4711,
        credify_id: 4712,
        transaction_status: 'OPEN',
        offer_code: 'offer-domain',
      },
    ],
    alsoRules: ['R-SVC-12'],
    needsOrder: false,
  },
];

/** The cases of one event domain: every fixture's, `type` left alone (see the file's comment). */
export function webhookDomainCases(
  event: EventDomain,
): { fixture: Record<string, unknown>; c: DomainCase }[] {
  const schema: JsonSchema | undefined = requestSchema('basic', 'receiveWebhook');
  if (schema === undefined) return [];
  return event.fixtures.flatMap((fixture) =>
    domainCases(schema, fixture, { rules: requestRules('basic', 'receiveWebhook') })
      .filter((c) => c.path[0] !== 'type')
      .map((c) => ({ fixture, c })),
  );
}

interface Outcome {
  label: string;
  violation?: string;
}

function violationText(error: unknown): string {
  if (error instanceof ContractViolation)
    return `expected ${error.expected}; got ${error.actual.slice(0, 300)}`;
  return error instanceof Error ? error.message : String(error);
}

/** The answer the protocol gives `c`: a 400 outside the schema, an acknowledgement inside it. */
function expectAnswer(c: DomainCase, exchange: HttpExchange): void {
  if (c.valid) {
    expectAck(exchange, false, `a signed event whose ${c.label} (inside its schema)`);
    return;
  }
  expectProblem(exchange, 400, {
    what: `for a validly signed event whose ${c.label} (outside its schema)`,
    spec: 'WIRE §4',
  });
}

function withOrder(fixture: Record<string, unknown>, orderId: string | undefined): Record<string, unknown> {
  return fixture.order_id === ORDER && orderId !== undefined ? { ...fixture, order_id: orderId } : fixture;
}

async function runEvent(ctx: CheckContext, event: EventDomain): Promise<void> {
  const order = event.needsOrder ? await createOrder(ctx) : undefined;
  const cases = webhookDomainCases(event);
  const outcomes: Outcome[] = await pooled(cases, CONCURRENCY, async ({ fixture, c }) => {
    const body = applyCase(withOrder(fixture, order?.id), c);
    const label = `${String(fixture.type)}: ${c.label}`;
    try {
      const { exchange } = await sendWebhook(ctx, JSON.stringify(body));
      expectAnswer(c, exchange);
      return { label };
    } catch (error) {
      return { label, violation: `${c.valid ? 'R-WH-13' : 'R-WH-17'}: ${violationText(error)}` };
    }
  });
  const failed = outcomes.filter((o) => o.violation !== undefined);
  const rules = [...new Set(failed.map((o) => o.violation!.split(':')[0]!))];
  ensure(failed.length === 0, {
    expected: `each of ${cases.length} signed events answered as WIRE §4 says (400 outside the event's schema, 200 {"received":true} inside it)`,
    actual: `${failed.length} answered otherwise:\n    ${failed
      .slice(0, SHOWN)
      .map((o) => `${o.label}: ${o.violation}`)
      .join('\n    ')}${failed.length > SHOWN ? `\n    … and ${failed.length - SHOWN} more` : ''}`,
    spec: 'WIRE §4, §6',
    ...(rules.length > 0 && { rule: rules.join(', ') }),
  });
  if (order === undefined) return;
  // Nothing valid named a status of the six (the longest is none, R-SVC-10) and the refused events
  // did nothing: the order the service holds PENDING is PENDING in the market's record too.
  const { status, exchange } = await marketStatus(ctx, order.id);
  ensure(status === 'PENDING', {
    expected: `order ${order.id} to stay PENDING: no event of ${cases.length} was a status of the six (refused, or one outside the six)`,
    actual: `status ${status}`,
    exchange,
    spec: 'WIRE §6',
    rule: 'R-SVC-10',
  });
}

export const domainWebhookChecks: ContractCheck[] = WEBHOOK_EVENT_DOMAINS.map((event) => {
  const cases = webhookDomainCases(event);
  const kinds = [...new Set(cases.map(({ c }) => c.kind))].join(', ');
  return {
    id: `domain.webhook.${event.slug}`,
    title: `Webhook ${event.fixtures
      .map((f) => String(f.type))
      .filter((t, i, all) => all.indexOf(t) === i)
      .join(
        ', ',
      )}: ${cases.length} signed cases of the event schema's domain (${kinds}) are refused (400) or acknowledged as documented`,
    modes: BOTH_MODES,
    spec: 'WIRE §4, §6',
    rules: ['R-WH-17', 'R-WH-13', ...event.alsoRules],
    run: (ctx) => runEvent(ctx, event),
  };
});

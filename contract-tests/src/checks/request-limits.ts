/**
 * Request bodies the market must refuse on every endpoint that takes one (WIRE §2): 413 for a body
 * far over the limit, 400 for a malformed push-claims body and a malformed disburse invoice, none
 * of which may reach the service.
 */
import type { IntegrationMode } from '@bnpl-kit/core';
import type { MarketRouteDefinition } from '@bnpl-kit/core/wire';
import { ensure, expectProblem, expectStatus, problemPaths } from '../expect.js';
import type { HttpExchange } from '../http.js';
import { approvedOrder } from '../support/approvals.js';
import { createOrder, orderPath } from '../support/orders.js';
import {
  credentialsFor,
  MARKET_ROUTES,
  routeLabel,
  routeSlug,
  routesWhere,
  routeUrl,
} from '../support/routes.js';
import { bearer, signedInUser } from '../support/users.js';
import { type CheckContext, type ContractCheck, DATA_SHARING_ONLY } from '../types.js';

interface LimitedEndpoint {
  slug: string;
  what: string;
  modes: readonly IntegrationMode[];
  /** Sends `body` with whatever credentials the endpoint needs. */
  send(ctx: CheckContext, body: string): Promise<HttpExchange>;
}

function post(ctx: CheckContext, url: string, body: string, headers: Record<string, string>) {
  // A server may answer 413 before reading the body and drop the connection: use a fresh one.
  return ctx.http.send(url, {
    method: 'POST',
    body,
    headers: { ...headers, 'content-type': 'application/json', connection: 'close' },
  });
}

/**
 * Every route of the route table that reads a JSON body under the cap (`payload_too_large` among its
 * problems), the webhook aside (its limit has checks of its own, signed): a path parameter names a
 * fresh order.
 */
const ENDPOINTS: LimitedEndpoint[] = routesWhere(
  (route) =>
    route.method === 'POST' &&
    route.auth !== 'webhook-signature' &&
    route.problems.includes('payload_too_large'),
).map((operation) => {
  const route = MARKET_ROUTES[operation] as MarketRouteDefinition;
  return {
    slug: routeSlug(operation),
    what: routeLabel(operation),
    modes: route.modes,
    async send(ctx, body) {
      const params: Record<string, string> =
        route.params?.id === undefined ? {} : { id: (await createOrder(ctx)).id };
      return post(ctx, routeUrl(ctx, operation, params), body, await credentialsFor(ctx, route.auth));
    },
  };
});

function oversized(ctx: CheckContext): string {
  // Four times the webhook limit: over any sensible limit for these small JSON bodies.
  return JSON.stringify({ padding: 'x'.repeat(ctx.maxBodyBytes * 4) });
}

function tooLargeCheck(endpoint: LimitedEndpoint): ContractCheck {
  return {
    id: `limits.payload-too-large.${endpoint.slug}`,
    title: `${endpoint.what} refuses a 1 MiB body with 413`,
    modes: endpoint.modes,
    spec: 'WIRE §2',
    rules: ['R-ERR-09'],
    async run(ctx) {
      const body = oversized(ctx);
      // RFC 9110 §15.5.14 lets a market answer 413 before reading the body and close the
      // connection (workerd does); ContractHttp reads that answer though the write of the rest fails.
      const exchange = await endpoint.send(ctx, body);
      expectProblem(exchange, 413, {
        what: `for a ${body.length}-byte body to ${endpoint.what}`,
        code: 'payload_too_large',
      });
    },
  };
}

const VALID_INVOICE = {
  number: 'INV-1',
  url: 'https://shop.example/invoices/1',
  issued_at: '2026-01-15T09:30:00Z',
};

/** One invoice field set against its rule (WIRE §5: number 1..255 characters, url absolute http(s), issued_at RFC 3339). */
const INVOICE_FIELD_CASES: [field: string, value: unknown][] = [
  ['number', ''],
  ['number', 'N'.repeat(256)],
  ['number', 42],
  ['number', null],
  ['url', 'not a url'],
  ['url', 'ftp://shop.example/invoices/1'],
  ['url', '/invoices/1'],
  ['url', 42],
  ['issued_at', 'yesterday'],
  ['issued_at', '15/01/2026'],
  ['issued_at', 20260115],
  ['(invoice)', 'INV-1'],
  ['(invoice)', ['INV-1']],
];

export const requestLimitChecks: ContractCheck[] = [
  ...ENDPOINTS.map(tooLargeCheck),
  {
    id: 'push-claims.malformed-body',
    title: 'Push-claims with a malformed body (not JSON, no id, a numeric credify_id) is a 400 problem',
    modes: DATA_SHARING_ONLY,
    spec: 'WIRE §5',
    rules: ['R-EP-12', 'R-ERR-02', 'R-ERR-04'],
    async run(ctx) {
      const user = await signedInUser(ctx);
      const bodies: [string, string][] = [
        ['a body that is not JSON', '{"id": '],
        ['a body without "credify_id"', JSON.stringify({ id: user.id })],
        ['a numeric "credify_id"', JSON.stringify({ id: user.id, credify_id: 42 })],
        ['a JSON array', '[]'],
      ];
      for (const [what, body] of bodies) {
        const exchange = await ctx.http.send(routeUrl(ctx, 'pushClaims'), {
          method: 'POST',
          body,
          headers: { ...bearer(user.sessionToken), 'content-type': 'application/json' },
        });
        // WIRE §2: a body that is not JSON is `invalid_json`; a JSON body that breaks a rule, `validation_failed`.
        const code = what === 'a body that is not JSON' ? 'invalid_json' : 'validation_failed';
        expectProblem(exchange, 400, { what: `for push-claims with ${what}`, code });
      }
    },
  },
  {
    id: 'orders.disburse.invoice-validation',
    title: 'Disburse with a malformed invoice is a 400 naming invoice fields, and nothing is paid',
    modes: DATA_SHARING_ONLY,
    spec: 'WIRE §5',
    rules: ['R-EP-10'],
    async run(ctx) {
      const id = await approvedOrder(ctx);
      const exchange = await ctx.http.send(orderPath(ctx, id, 'disburse'), {
        method: 'POST',
        json: { invoice: { number: '', url: 'not a url', issued_at: 'yesterday' } },
        headers: { ...ctx.systemAuth },
      });
      const problem = expectProblem(exchange, 400, {
        what: 'for a disburse whose invoice has an empty number, a url that is not one and a date that is not ISO 8601',
        code: 'validation_failed',
      });
      const paths = problemPaths(problem);
      ensure(
        paths.some((p) => p.startsWith('invoice')),
        {
          expected:
            'errors[].path to name the invoice fields (invoice.number, invoice.url, invoice.issued_at)',
          actual: `paths ${JSON.stringify(paths)}`,
          exchange,
          spec: 'WIRE §2',
        },
      );
      // Then each field alone against its rule (the others valid): one rule kept is not all kept.
      for (const [field, value] of INVOICE_FIELD_CASES) {
        const invoice: Record<string, unknown> = { ...VALID_INVOICE, [field]: value };
        const one = await ctx.http.send(orderPath(ctx, id, 'disburse'), {
          method: 'POST',
          json: field === '(invoice)' ? { invoice: value } : { invoice },
          headers: { ...ctx.systemAuth },
        });
        expectProblem(one, 400, {
          what: `for a disburse whose invoice ${field === '(invoice)' ? 'is' : `${field} is`} ${JSON.stringify(value).slice(0, 60)} (every other field valid)`,
          spec: 'WIRE §5',
        });
      }
      const count = await ctx.sandbox.disbursements(id);
      ensure(count === 0, { expected: 'no disbursement for a refused request', actual: `${count}` });
      const valid = await ctx.http.send(orderPath(ctx, id, 'disburse'), {
        method: 'POST',
        json: {
          invoice: {
            number: 'INV-1',
            url: 'https://shop.example/invoices/1',
            issued_at: new Date().toISOString(),
          },
        },
        headers: { ...ctx.systemAuth },
      });
      expectStatus(valid, 202, 'for a disburse with a valid invoice', 'WIRE §5');
    },
  },
];

/**
 * The endpoints a browser reaches: the BNPL redirect (WIRE §5) and the sandbox demo user. Plus the
 * problem document shape of WIRE §2 across several kinds of error.
 */
import { ensure, expectJsonObject, expectProblem, expectStatus } from '../expect.js';
import { adviseUnservedCallback } from '../support/callback.js';
import { createOrder, postOrder, sampleOrder } from '../support/orders.js';
import { routeUrl } from '../support/routes.js';
import { parseDemoUsers } from '../support/users.js';
import { BOTH_MODES, type CheckContext, type ContractCheck } from '../types.js';

function redirectUrl(ctx: CheckContext, id: string): string {
  return routeUrl(ctx, 'bnplRedirect', { id });
}

export const browserChecks: ContractCheck[] = [
  {
    id: 'redirect.known-order',
    title: "The BNPL redirect of a known order is a 302 to the market's callback URL",
    modes: BOTH_MODES,
    spec: 'WIRE §5',
    rules: ['R-EP-17'],
    async run(ctx) {
      const order = await createOrder(ctx);
      const exchange = await ctx.http.send(redirectUrl(ctx, order.id));
      expectStatus(exchange, 302, "with Location: the market's BNPL callback URL");
      const location = exchange.headers.get('location') ?? '';
      ensure(/^https?:\/\//i.test(location) && URL.canParse(location), {
        expected: 'Location to be an absolute http(s) URL (getBNPLCallback)',
        exchange,
      });
      if (ctx.bnplCallbackUrl !== undefined) {
        const wanted = new URL(ctx.bnplCallbackUrl);
        const got = new URL(location);
        ensure(got.origin === wanted.origin && got.pathname.startsWith(wanted.pathname.replace(/\/+$/, '')), {
          expected: `Location to lead to BNPL_CALLBACK_URL ${ctx.bnplCallbackUrl}`,
          exchange,
        });
      }
      await adviseUnservedCallback(ctx, location);
    },
  },
  {
    id: 'redirect.unknown-order',
    title: 'The BNPL redirect of an unknown order is a 404 problem',
    modes: BOTH_MODES,
    spec: 'WIRE §5',
    rules: ['R-EP-18', 'R-ERR-07'],
    async run(ctx) {
      const exchange = await ctx.http.send(redirectUrl(ctx, ctx.unique('ord_unknown')));
      expectProblem(exchange, 404, {
        what: 'for the redirect of an order the market does not know',
        spec: 'WIRE §5',
      });
    },
  },
  {
    id: 'demo-user.sandbox',
    title: 'In sandbox mode GET /demo-user answers a demo user (production answers 404)',
    modes: BOTH_MODES,
    spec: 'WIRE §5',
    rules: ['R-EP-14'],
    async run(ctx) {
      const exchange = await ctx.http.send(routeUrl(ctx, 'getDemoUser'));
      expectStatus(exchange, 200, 'with a demo user (the market under certification runs in sandbox mode)');
      const body = expectJsonObject(exchange, 'for the demo user');
      ensure(parseDemoUsers(body).length > 0, {
        expected: 'a demo user record with a string "id"',
        exchange,
      });
    },
  },
  {
    id: 'errors.problem-details',
    title:
      'Errors of every kind are RFC 9457 problem+json documents with type, title, status, detail and code',
    modes: BOTH_MODES,
    spec: 'WIRE §2',
    rules: ['R-ERR-01', 'R-ERR-12', 'R-ERR-13'],
    async run(ctx) {
      const invalid = sampleOrder(ctx.unique('ref'));
      invalid.total_amount.value = 'lots';
      const problem = expectProblem(await postOrder(ctx, invalid), 400, {
        what: 'for an invalid order',
        code: 'validation_failed',
      });
      ensure(Array.isArray(problem.errors) && problem.errors.length > 0, {
        expected: 'a validation problem to list its field issues in "errors"',
        actual: JSON.stringify(problem).slice(0, 300),
      });
      const unauthenticated = await ctx.http.send(routeUrl(ctx, 'createOrder'), {
        method: 'POST',
        json: sampleOrder(ctx.unique('ref')),
      });
      expectProblem(unauthenticated, 401, { what: 'without credentials', code: 'unauthenticated' });
      const missing = await ctx.http.send(redirectUrl(ctx, ctx.unique('ord_unknown')));
      expectProblem(missing, 404, { what: 'for an unknown order', code: 'order_not_found' });
    },
  },
];

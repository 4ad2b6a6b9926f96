/**
 * The service failing under the market (WIRE §2, §6): the sandbox answers 500, a malformed body, or
 * nothing at all to one call, and the market must answer 502/503/504 problem+json without echoing the
 * service's answer, and must not act as if the call had succeeded (a refused cancel can be retried).
 */
import { ensure, expectJsonObject, expectProblem, expectStatus } from '../expect.js';
import type { HttpExchange } from '../http.js';
import type { RouteFaultSpec } from '../sandbox/driver.js';
import { approvedOrder } from '../support/approvals.js';
import { createOrder, postAction, postOrder, sampleOrder, statusPath } from '../support/orders.js';
import { pushOwnClaims } from '../support/push-claims.js';
import { routeUrl } from '../support/routes.js';
import { signedInAtService } from '../support/users.js';
import { BOTH_MODES, type CheckContext, type ContractCheck, DATA_SHARING_ONLY } from '../types.js';

const UPSTREAM = [502, 503, 504] as const;

/**
 * A fault holds for every attempt a market makes: R-SVC-05 lets a market retry a keyed call (the
 * same Idempotency-Key, R-SVC-06), so a fault that lets the second attempt through would fail a
 * market that retries correctly. Cleared right after the market's answer.
 */
const EVERY_ATTEMPT = 10;

/** Runs `act` with `fault` injected, and clears every fault left afterwards (a market may not call at all). */
async function withFault<T>(ctx: CheckContext, fault: RouteFaultSpec, act: () => Promise<T>): Promise<T> {
  await ctx.sandbox.injectFault(fault);
  try {
    return await act();
  } finally {
    await ctx.sandbox.clearFaults();
  }
}

function expectUpstreamProblem(exchange: HttpExchange, what: string): void {
  expectProblem(exchange, UPSTREAM, {
    what: `when the service ${what}`,
    code: ['upstream_unavailable', 'upstream_rejected', 'upstream_timeout'],
    spec: 'WIRE §2',
  });
}

function createFailure(
  slug: string,
  fault: Omit<RouteFaultSpec, 'operation'>,
  what: string,
  timeoutMs?: number,
): ContractCheck {
  return {
    id: `service-failure.create.${slug}`,
    title: `Order creation when the service ${what}: 502/503/504 problem, no internals`,
    modes: BOTH_MODES,
    spec: 'WIRE §2',
    rules:
      slug === 'timeout'
        ? ['R-ERR-11', 'R-SVC-05']
        : slug === 'error'
          ? ['R-ERR-11', 'R-ERR-13']
          : ['R-ERR-11'],
    async run(ctx) {
      const request = sampleOrder(ctx.unique('ref'));
      const exchange = await withFault(ctx, { operation: 'createOrder', ...fault }, () =>
        ctx.http.send(routeUrl(ctx, 'createOrder'), {
          method: 'POST',
          json: request,
          headers: { ...ctx.systemAuth },
          ...(timeoutMs !== undefined && { timeoutMs }),
        }),
      );
      expectUpstreamProblem(exchange, what);
      // The market must not keep an order the service never confirmed: the same request now succeeds,
      // and names the order the service now holds for the reference (not one the market made up).
      const again = await postOrder(ctx, request);
      expectStatus(again, [200, 201], 'for the same order once the service works again', 'WIRE §5');
      const id = expectJsonObject(again, 'for the same order once the service works again').id;
      const atService = await ctx.sandbox.ordersByReference(request.reference_id);
      ensure(atService.length === 1 && atService[0]!.id === id, {
        expected: `the answer to name the one order the service holds for reference_id ${request.reference_id}`,
        actual: `the market answered order ${JSON.stringify(id)}; the service holds ${atService.map((o) => o.id).join(', ') || 'none'}`,
        exchange: again,
        spec: 'WIRE §5',
      });
    },
  };
}

export const serviceFailureChecks: ContractCheck[] = [
  createFailure('error', { action: 'error', status: 500, times: EVERY_ATTEMPT }, 'answers 500'),
  createFailure(
    'malformed',
    { action: 'malformed', times: EVERY_ATTEMPT },
    'answers 200 with a malformed body',
  ),
  // The market's own service timeout decides when it gives up (WIRE §6: 8 s by default), each attempt.
  createFailure('timeout', { action: 'timeout', times: EVERY_ATTEMPT }, 'never answers', 30_000),
  {
    id: 'service-failure.status.error',
    title:
      'The status endpoint when the service fails: its stored record (200) or a 502/503/504 problem; for an order it does not hold, a 404 or 502/503/504 problem',
    modes: BOTH_MODES,
    spec: 'WIRE §2',
    rules: ['R-ERR-11', 'R-ERR-07'],
    async run(ctx) {
      const order = await createOrder(ctx);
      const exchange = await withFault(
        ctx,
        { operation: 'getOrder', action: 'error', status: 500, times: 5 },
        () => ctx.http.send(statusPath(ctx, order.id), { headers: { ...ctx.systemAuth } }),
      );
      if (exchange.status === 200) {
        const body = expectJsonObject(exchange, 'for the order status while the service fails');
        ensure(body.id === order.id && body.status === 'PENDING', {
          expected: `the stored record of ${order.id} (status PENDING) while the service fails`,
          exchange,
          spec: 'WIRE §5',
        });
      } else {
        expectUpstreamProblem(exchange, 'answers 500 to every status request');
      }
      // An order the market does not hold, while the service fails: it has no record to fall back
      // on. Unknown to it (404) or the service's failure (502/503/504), never a 500 of its own.
      const unknown = await withFault(
        ctx,
        { operation: 'getOrder', action: 'error', status: 500, times: 5 },
        () => ctx.http.send(statusPath(ctx, ctx.unique('ord_unknown')), { headers: { ...ctx.systemAuth } }),
      );
      if (unknown.status === 404)
        expectProblem(unknown, 404, {
          what: 'for an order the market does not hold, while the service fails',
        });
      else
        expectUpstreamProblem(
          unknown,
          'answers 500 to every status request (for an order the market does not hold)',
        );
    },
  },
  ...(['cancel', 'disburse'] as const).map(
    (action): ContractCheck => ({
      id: `service-failure.${action}.error`,
      title: `${action === 'cancel' ? 'Cancel' : 'Disburse'} when the service answers 503: a 502/503/504 problem, and the order can be ${action === 'cancel' ? 'cancelled' : 'disbursed'} afterwards`,
      modes: DATA_SHARING_ONLY,
      spec: 'WIRE §2',
      rules: action === 'cancel' ? ['R-ERR-11', 'R-EP-07'] : ['R-ERR-11'],
      async run(ctx) {
        const id = await approvedOrder(ctx);
        const operation = action === 'cancel' ? 'revertOrder' : 'disburseOrder';
        const exchange = await withFault(
          ctx,
          { operation, action: 'error', status: 503, times: EVERY_ATTEMPT },
          () => postAction(ctx, id, action),
        );
        expectUpstreamProblem(exchange, `answers 503 to ${operation}`);
        const again = await postAction(ctx, id, action);
        expectStatus(
          again,
          202,
          `for ${action} of the still APPROVED order once the service works again (the failed call must not move it)`,
          'WIRE §3, §5',
        );
      },
    }),
  ),
  {
    id: 'service-failure.push-claims.error',
    title: 'Push-claims when the service answers 500: a 502/503/504 problem, no internals',
    modes: DATA_SHARING_ONLY,
    spec: 'WIRE §2',
    rules: ['R-ERR-11', 'R-CLAIM-09'],
    async run(ctx) {
      const { user, credifyId } = await signedInAtService(ctx);
      const exchange = await withFault(
        ctx,
        { operation: 'pushClaimTokens', action: 'error', status: 500, times: EVERY_ATTEMPT },
        () => pushOwnClaims(ctx, user, credifyId),
      );
      expectUpstreamProblem(exchange, 'answers 500 to the claim tokens');
    },
  },
];

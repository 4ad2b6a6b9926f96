/**
 * The service failing under the market (WIRE §2, §6): the sandbox answers 500, a malformed body, or
 * nothing at all to one call, and the market must answer 502/503/504 problem+json without echoing the
 * service's answer, and must not act as if the call had succeeded (a refused cancel can be retried).
 */
import { ensure, expectJsonObject, expectProblem, expectStatus } from '../expect.js';
import type { HttpExchange } from '../http.js';
import type { RouteFaultSpec } from '../sandbox/driver.js';
import { approvedOrder } from '../support/approvals.js';
import { withFaults } from '../support/faults.js';
import { createOrder, postAction, postOrder, sampleOrder, statusPath } from '../support/orders.js';
import { pushOwnClaims } from '../support/push-claims.js';
import { routeUrl } from '../support/routes.js';
import { signedInAtService } from '../support/users.js';
import { BOTH_MODES, type ContractCheck, DATA_SHARING_ONLY } from '../types.js';

const UPSTREAM = [502, 503, 504] as const;

/**
 * A fault holds for every attempt a market makes: R-SVC-05 lets a market retry a keyed call (the
 * same Idempotency-Key, R-SVC-06), so a fault that lets the second attempt through would fail a
 * market that retries correctly. Cleared right after the market's answer.
 */
const EVERY_ATTEMPT = 10;

/**
 * The service's answers that are no success (WIRE §6: `{ "success": true, "data": … }` is the one
 * success, R-SVC-01): a 5xx, a 2xx that is no envelope at all, and a 2xx whose envelope says
 * `success: false`. A market that reads the HTTP status alone, or only the data it needs, takes the
 * last two for a success.
 */
interface BadAnswer {
  slug: string;
  what: string;
  fault: Omit<RouteFaultSpec, 'operation'>;
}

const NOT_ENVELOPE: BadAnswer[] = [
  {
    slug: 'malformed',
    what: 'answers 200 with a body that is no envelope',
    fault: { action: 'malformed', times: EVERY_ATTEMPT },
  },
  {
    slug: 'refused',
    what: 'answers 200 with success: false',
    fault: { action: 'refused', times: EVERY_ATTEMPT },
  },
];

const BAD_ANSWERS: BadAnswer[] = [
  { slug: 'error', what: 'answers 500', fault: { action: 'error', status: 500, times: EVERY_ATTEMPT } },
  ...NOT_ENVELOPE,
];

/** Cancel and disburse met a 503 first (a service restarting), then the same two 2xx answers. */
const ACTION_BAD_ANSWERS: BadAnswer[] = [
  { slug: 'error', what: 'answers 503', fault: { action: 'error', status: 503, times: EVERY_ATTEMPT } },
  ...NOT_ENVELOPE,
];

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
          : ['R-ERR-11', 'R-SVC-01'],
    async run(ctx) {
      const request = sampleOrder(ctx.unique('ref'));
      const exchange = await withFaults(ctx, [{ operation: 'createOrder', ...fault }], () =>
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
  createFailure(
    'refused',
    { action: 'refused', times: EVERY_ATTEMPT },
    'answers 200 with success: false (a refusal inside a 2xx)',
  ),
  // The market's own service timeout decides when it gives up (WIRE §6: 8 s by default), each attempt.
  createFailure('timeout', { action: 'timeout', times: EVERY_ATTEMPT }, 'never answers', 30_000),
  ...BAD_ANSWERS.map(
    (bad): ContractCheck => ({
      id: `service-failure.status.${bad.slug}`,
      title: `The status endpoint when the service ${bad.what}: its stored record (200) or a 502/503/504 problem; for an order it does not hold, a 404 or 502/503/504 problem`,
      modes: BOTH_MODES,
      spec: 'WIRE §2',
      rules: bad.slug === 'error' ? ['R-ERR-11', 'R-ERR-07'] : ['R-ERR-11', 'R-ERR-07', 'R-SVC-01'],
      async run(ctx) {
        const order = await createOrder(ctx);
        const fault = { operation: 'getOrder', ...bad.fault, order_id: order.id } as const;
        const exchange = await withFaults(ctx, [fault], () =>
          ctx.http.send(statusPath(ctx, order.id), { headers: { ...ctx.systemAuth } }),
        );
        if (exchange.status === 200) {
          const body = expectJsonObject(exchange, `for the order status while the service ${bad.what}`);
          ensure(body.id === order.id && body.status === 'PENDING', {
            expected: `the stored record of ${order.id} (status PENDING) while the service ${bad.what}`,
            exchange,
            spec: 'WIRE §5',
          });
        } else {
          expectUpstreamProblem(exchange, `${bad.what} to every status request`);
        }
        // An order the market does not hold, while the service fails: it has no record to fall back
        // on. Unknown to it (404) or the service's failure (502/503/504), never a 500 of its own.
        const unknownId = ctx.unique('ord_unknown');
        const unknown = await withFaults(ctx, [{ ...fault, order_id: unknownId }], () =>
          ctx.http.send(statusPath(ctx, unknownId), { headers: { ...ctx.systemAuth } }),
        );
        if (unknown.status === 404)
          expectProblem(unknown, 404, {
            what: `for an order the market does not hold, while the service ${bad.what}`,
          });
        else
          expectUpstreamProblem(
            unknown,
            `${bad.what} to every status request (for an order the market does not hold)`,
          );
      },
    }),
  ),
  ...(['cancel', 'disburse'] as const).flatMap((action) =>
    ACTION_BAD_ANSWERS.map(
      (bad): ContractCheck => ({
        id: `service-failure.${action}.${bad.slug}`,
        title: `${action === 'cancel' ? 'Cancel' : 'Disburse'} when the service ${bad.what}: a 502/503/504 problem, and the order can be ${action === 'cancel' ? 'cancelled' : 'disbursed'} afterwards`,
        modes: DATA_SHARING_ONLY,
        spec: 'WIRE §2',
        rules: [
          'R-ERR-11',
          ...(action === 'cancel' ? ['R-EP-07'] : []),
          ...(bad.slug === 'error' ? [] : ['R-SVC-01']),
        ],
        async run(ctx) {
          const id = await approvedOrder(ctx);
          const operation = action === 'cancel' ? 'revertOrder' : 'disburseOrder';
          const exchange = await withFaults(ctx, [{ operation, ...bad.fault, order_id: id }], () =>
            postAction(ctx, id, action),
          );
          expectUpstreamProblem(exchange, `${bad.what} to ${operation}`);
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
  ),
  ...BAD_ANSWERS.map(
    (bad): ContractCheck => ({
      id: `service-failure.push-claims.${bad.slug}`,
      title: `Push-claims when the service ${bad.what}: a 502/503/504 problem, no internals`,
      modes: DATA_SHARING_ONLY,
      spec: 'WIRE §2',
      rules: bad.slug === 'error' ? ['R-ERR-11', 'R-CLAIM-09'] : ['R-ERR-11', 'R-CLAIM-09', 'R-SVC-01'],
      async run(ctx) {
        const { user, credifyId } = await signedInAtService(ctx);
        const exchange = await withFaults(ctx, [{ operation: 'pushClaimTokens', ...bad.fault }], () =>
          pushOwnClaims(ctx, user, credifyId),
        );
        expectUpstreamProblem(exchange, `${bad.what} to the claim tokens`);
      },
    }),
  ),
];

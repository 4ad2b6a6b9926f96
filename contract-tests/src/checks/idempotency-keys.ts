/**
 * Idempotency-Key on the market's mutating service calls (WIRE §6), read from the sandbox's record
 * of every call: present on each, and the same key when the market repeats a call whose answer it
 * lost, so a retried disbursement cannot pay twice at a service that does not de-duplicate by itself.
 */

import { ensure, expectStatus } from '../expect.js';
import type { HttpExchange } from '../http.js';
import type { ServiceCallView } from '../sandbox/driver.js';
import { approvedOrder } from '../support/approvals.js';
import { canonicalJson } from '../support/canonical-json.js';
import { untilElapsed } from '../support/clock.js';
import { withFaults } from '../support/faults.js';
import { lostDisbursementAnswer } from '../support/lost-disbursement.js';
import { postAction, postOrder, sampleOrder } from '../support/orders.js';
import { isCallOnOrder } from '../support/own-calls.js';
import { pushOwnClaims } from '../support/push-claims.js';
import { signedInAtService } from '../support/users.js';
import { BOTH_MODES, type CheckContext, type ContractCheck, DATA_SHARING_ONLY } from '../types.js';

function describeCalls(calls: readonly ServiceCallView[]): string {
  if (calls.length === 0) return 'no such call at the service';
  return calls
    .map((c) => `${c.method} ${c.path} Idempotency-Key: ${c.idempotencyKey ?? '(none)'}`)
    .join('; ');
}

/** Every call must carry a key; with `same`, the same one. */
function expectKeys(calls: readonly ServiceCallView[], what: string, same: boolean): void {
  ensure(calls.length > 0 && calls.every((c) => (c.idempotencyKey ?? '') !== ''), {
    expected: `an Idempotency-Key header on ${what}`,
    actual: describeCalls(calls),
    spec: 'WIRE §6',
  });
  if (same) {
    ensure(new Set(calls.map((c) => c.idempotencyKey)).size === 1, {
      expected: `the same Idempotency-Key on every attempt of ${what} (derived from the operation and order)`,
      actual: describeCalls(calls),
      spec: 'WIRE §6',
    });
  }
}

/** A body as the service compares it: parsed JSON, keys sorted (the bytes may differ in key order). */
function canonical(body: string | undefined): string {
  if (body === undefined || body === '') return '(no body)';
  try {
    return canonicalJson(JSON.parse(body));
  } catch {
    return body;
  }
}

/**
 * Every attempt of one operation sends the same request (WIRE §5: a retried disbursement carries the
 * same invoice): a service that stores the first answer under the key refuses a different body as an
 * idempotency conflict, so a generated field (`issued_at` = now) turns the retry into a failure.
 */
function expectSameBodies(calls: readonly ServiceCallView[], what: string): void {
  const bodies = [...new Set(calls.map((c) => canonical(c.body)))];
  ensure(bodies.length <= 1, {
    expected: `the same request body (invoice included) on every attempt of ${what}`,
    actual: bodies.join(' then '),
    spec: 'WIRE §5',
  });
}

/** The calls of `operation` about `about` (in the path or the body) that the market made while `act` ran. */
async function callsDuring(
  ctx: CheckContext,
  operation: string,
  belongs: (call: ServiceCallView) => boolean,
  act: () => Promise<void>,
): Promise<ServiceCallView[]> {
  const since = await ctx.sandbox.lastCallId();
  await act();
  return (await ctx.sandbox.serviceCalls(since)).filter((c) => c.operation === operation && belongs(c));
}

/** A call whose path or body holds `text` (a reference_id, a credify ID). */
const mentions = (text: string) => (call: ServiceCallView) =>
  call.path.includes(text) || (call.body ?? '').includes(text);

/** Whether the market's first disburse call of `id` after call `since` carried an invoice date. */
async function firstCarriesDate(ctx: CheckContext, since: number, id: string): Promise<boolean> {
  const first = (await ctx.sandbox.serviceCalls(since)).find(
    (c) => c.operation === 'disburseOrder' && isCallOnOrder(c, id),
  );
  return first !== undefined && /"issued_at"/.test(first.body ?? '');
}

export const idempotencyKeyChecks: ContractCheck[] = [
  {
    id: 'service.idempotency-key.create',
    title:
      'Order creation carries an Idempotency-Key, the same one when the market repeats a call whose answer was lost',
    modes: BOTH_MODES,
    spec: 'WIRE §6',
    rules: ['R-SVC-06'],
    async run(ctx) {
      const request = sampleOrder(ctx.unique('ref'));
      const calls = await callsDuring(ctx, 'createOrder', mentions(request.reference_id), async () => {
        await withFaults(
          ctx,
          [{ operation: 'createOrder', action: 'error', status: 503, after_effect: true }],
          () => postOrder(ctx, request),
        );
        const again = await postOrder(ctx, request);
        expectStatus(
          again,
          [200, 201],
          'for repeating an order whose first creation answer was lost',
          'WIRE §5',
        );
      });
      expectKeys(calls, 'the create order calls of one order', true);
      const atService = await ctx.sandbox.ordersByReference(request.reference_id);
      ensure(atService.length === 1, {
        expected: 'exactly one order at the service for the reference_id',
        actual: `${atService.length} orders`,
        spec: 'WIRE §6',
      });
    },
  },
  {
    id: 'service.idempotency-key.disburse-retry',
    title:
      'A disbursement repeated after a lost answer carries the same Idempotency-Key and the same invoice, and pays once',
    modes: DATA_SHARING_ONLY,
    spec: 'WIRE §6',
    rules: ['R-SVC-06', 'R-EP-09', 'R-EP-11'],
    async run(ctx) {
      const id = await approvedOrder(ctx);
      let again: HttpExchange | undefined;
      const calls = await callsDuring(
        ctx,
        'disburseOrder',
        (c) => isCallOnOrder(c, id),
        async () => {
          // The market learns nothing of the payment that did happen, so it can only repeat the call:
          // the case the key exists for.
          again = await withFaults(ctx, lostDisbursementAnswer(id), async () => {
            const since = await ctx.sandbox.lastCallId();
            await postAction(ctx, id, 'disburse');
            const answered = Date.now();
            // R-EP-11: an invoice the market dates itself must come back unchanged, also when the
            // retry falls into a later second (a date generated anew at whole seconds matches within
            // one). Only then does the retry wait: until a second has passed since the market's
            // first attempt, whatever the offset between its clock and certify's.
            if (await firstCarriesDate(ctx, since, id)) await untilElapsed(answered, 1000);
            return postAction(ctx, id, 'disburse');
          });
        },
      );
      expectKeys(calls, `the disburse calls of order ${id}`, true);
      expectSameBodies(calls, `the disburse calls of order ${id}`);
      expectStatus(again!, [202, 409], 'for disbursing again after the first answer was lost', 'WIRE §5');
      const count = await ctx.sandbox.disbursements(id);
      ensure(count === 1, { expected: 'exactly one disbursement', actual: `${count} disbursements` });
    },
  },
  {
    id: 'service.idempotency-key.cancel',
    title: 'A cancel (revert) call carries an Idempotency-Key',
    modes: DATA_SHARING_ONLY,
    spec: 'WIRE §6',
    rules: ['R-SVC-06'],
    async run(ctx) {
      const id = await approvedOrder(ctx);
      expectKeys(
        await callsDuring(
          ctx,
          'revertOrder',
          (c) => isCallOnOrder(c, id),
          async () => {
            expectStatus(
              await postAction(ctx, id, 'cancel'),
              202,
              'for cancelling an APPROVED order',
              'WIRE §5',
            );
          },
        ),
        `the revert call of order ${id}`,
        false,
      );
    },
  },
  {
    id: 'service.idempotency-key.push-claims',
    title: 'Pushing claim tokens carries an Idempotency-Key',
    modes: DATA_SHARING_ONLY,
    spec: 'WIRE §6',
    rules: ['R-SVC-07'],
    async run(ctx) {
      const { user, credifyId } = await signedInAtService(ctx);
      expectKeys(
        await callsDuring(ctx, 'pushClaimTokens', mentions(encodeURIComponent(credifyId)), async () => {
          const exchange = await pushOwnClaims(ctx, user, credifyId);
          expectStatus(exchange, 200, "for pushing the signed-in user's own claims", 'WIRE §5');
        }),
        'the claim token push',
        false,
      );
    },
  },
];

/**
 * Requests that arrive together, as a busy market's systems and a retrying service send them: every
 * outcome is held to the rules (one order per reference, one transition per order, one payment, one
 * effect per event), and the losers get the documented codes. A market that reads a row and acts
 * on it without a lock passes every sequential check and fails these.
 */
import type { OrderStatus } from '@bnpl-kit/core';
import { pollUntil } from '@bnpl-kit/core/testing';
import { ACTION_ALLOWED_FROM, ORDER_ACTIONS, type OrderAction, scopeHash } from '@bnpl-kit/core/wire';
import { ensure, expectProblem, isObject } from '../expect.js';
import type { HttpExchange } from '../http.js';
import { approvedOrder, approvedUnannounced } from '../support/approvals.js';
import { withFaults } from '../support/faults.js';
import {
  createOrder,
  marketStatus,
  postAction,
  postOrder,
  sampleOrder,
  sampleOrderOfQuantity,
} from '../support/orders.js';
import { isCallOnOrder } from '../support/own-calls.js';
import { pushOwnClaims } from '../support/push-claims.js';
import { routeUrl } from '../support/routes.js';
import { signedInAtService } from '../support/users.js';
import { MARKET_EFFECT_WAIT_MS } from '../support/wait.js';
import { expectAck, sendWebhook, statusEvent } from '../support/webhooks.js';
import { BOTH_MODES, type CheckContext, type ContractCheck, DATA_SHARING_ONLY } from '../types.js';

/** How many requests race: enough to interleave on any server, few enough for a small one. */
const RACERS = 5;

const statuses = (answers: readonly HttpExchange[]) => answers.map((a) => a.status).join(', ');

/**
 * A chain of forward moves without readiness (WIRE §3), its updates of one order sent together in
 * each of the six orders (the last first among them), so a market that reads the row, awaits, and
 * writes what it computed from the stale read (no row lock) is left on whichever write landed last.
 */
const CHAIN = ['APPROVED', 'CANCELING', 'CANCELED'] as const;
const SEND_ORDERS: readonly (readonly number[])[] = [
  [2, 1, 0],
  [2, 0, 1],
  [1, 2, 0],
  [1, 0, 2],
  [0, 2, 1],
  [0, 1, 2],
];

/**
 * How many times the six send orders are raced. A stale read shows only when the updates of one
 * order reach the market inside its read-to-write window; on a busy machine one round can miss it,
 * and a correct market passes every round, so more rounds only add power.
 */
const STATUS_UPDATE_ROUNDS = 3;

/**
 * One round of `concurrency.status-updates`: an order per send order, every update signed before any
 * is sent, then each order's updates sent together, one order at a time, so that nothing else the
 * check does reaches the market between them. What went wrong, one line per order.
 */
async function statusUpdateRound(ctx: CheckContext): Promise<string[]> {
  const prepared = await Promise.all(
    SEND_ORDERS.map(async (sequence) => {
      // The service holds the order PENDING: only these deliveries move the market's record.
      const order = await createOrder(ctx);
      const signed = await Promise.all(
        sequence.map((i) =>
          ctx.sandbox.signWebhook({
            url: ctx.webhookUrl,
            body: statusEvent(order.id, CHAIN[i]!),
            eventId: ctx.unique('evt-together'),
            timestamp: new Date(),
          }),
        ),
      );
      return { orderId: order.id, sent: sequence.map((i) => CHAIN[i]).join(', '), signed };
    }),
  );
  const wrong: string[] = [];
  for (const { orderId, sent, signed } of prepared) {
    const answers = await ctx.http.together(
      signed.map(
        (webhook) => () =>
          ctx.http.send(routeUrl(ctx, 'receiveWebhook'), {
            method: 'POST',
            headers: webhook.headers,
            body: webhook.body,
          }),
      ),
    );
    if (!answers.every((a) => a.status === 200))
      wrong.push(`${orderId} (sent ${sent}): statuses ${statuses(answers)}`);
  }
  for (const { orderId, sent } of prepared) {
    const { status } = await marketStatus(ctx, orderId);
    if (status !== CHAIN.at(-1))
      wrong.push(`${orderId} (sent ${sent} together): the market reports ${status}`);
  }
  return wrong;
}

/**
 * Where an accepted action from APPROVED leaves the order (WIRE §3): a cancel moves it towards
 * CANCELED, a disburse towards PAID. What the service answers decides which of the two.
 */
const LEADS_TO: Readonly<Record<OrderAction, readonly OrderStatus[]>> = {
  cancel: ['CANCELING', 'CANCELED'],
  disburse: ['DISBURSING', 'PAID'],
};

/**
 * The pairs of actions (the same one twice included) of which only one can succeed on an APPROVED
 * order: whichever lands first leaves the order where the other is refused (core's
 * ACTION_ALLOWED_FROM). Two disburses are not such a pair (disburse is allowed from DISBURSING);
 * `orders.disburse.pays-once` races those.
 */
function exclusiveActionPairs(): [OrderAction, OrderAction][] {
  const pairs: [OrderAction, OrderAction][] = [];
  ORDER_ACTIONS.forEach((first, i) => {
    for (const second of ORDER_ACTIONS.slice(i)) {
      const refusedAfter = (a: OrderAction, b: OrderAction) =>
        LEADS_TO[a].every((status) => !ACTION_ALLOWED_FROM[b].includes(status));
      if (refusedAfter(first, second) && refusedAfter(second, first)) pairs.push([first, second]);
    }
  });
  return pairs;
}

/** R-EP-06 allows a cancel only from APPROVED; R-EP-08 a disburse, which R-EP-09 pays once. */
const ACTION_RULES: Readonly<Record<OrderAction, readonly string[]>> = {
  cancel: ['R-EP-06'],
  disburse: ['R-EP-08', 'R-EP-09'],
};

const SERVICE_OPERATION: Readonly<Record<OrderAction, string>> = {
  cancel: 'revertOrder',
  disburse: 'disburseOrder',
};

/** Two actions of one APPROVED order sent together: one 202, one 409, one action at the service. */
function actionRace([first, second]: [OrderAction, OrderAction]): ContractCheck {
  const both = first === second ? `Two ${first}s` : `${capitalized(first)} and ${second}`;
  return {
    id: `concurrency.${first}-${second}`,
    title: `${both} of one APPROVED order sent together: one is accepted and reaches the service, the other is a 409`,
    modes: DATA_SHARING_ONLY,
    spec: 'WIRE §3, §5',
    rules: [...new Set([first, second].flatMap((action) => ACTION_RULES[action]))],
    async run(ctx) {
      const id = await approvedOrder(ctx);
      const since = await ctx.sandbox.lastCallId();
      const answers = await ctx.http.together([
        () => postAction(ctx, id, first),
        () => postAction(ctx, id, second),
      ]);
      const accepted = answers.filter((a) => a.status === 202);
      ensure(accepted.length === 1, {
        expected: `exactly one of a concurrent ${first} and ${second} of one APPROVED order to be accepted (202)`,
        actual: `${first} → ${answers[0]!.status}, ${second} → ${answers[1]!.status}`,
        spec: 'WIRE §5',
      });
      const loserIndex = answers[0]!.status === 202 ? 1 : 0;
      const loserAction = loserIndex === 0 ? first : second;
      expectProblem(answers[loserIndex]!, 409, {
        what: `for the ${loserAction} that lost the race (the order had moved on)`,
        code: 'invalid_transition',
        spec: 'WIRE §5',
      });
      if (first === second) return; // A retry of the one accepted call looks the same at the service.
      const reached = new Set(
        (await ctx.sandbox.serviceCalls(since))
          .filter((c) => isCallOnOrder(c, id))
          .map((c) => c.operation)
          .filter(
            (operation) => operation === SERVICE_OPERATION[first] || operation === SERVICE_OPERATION[second],
          ),
      );
      ensure(reached.size === 1, {
        expected: 'only the accepted action to reach the service (the order is locked while one acts on it)',
        actual: `the service received ${[...reached].join(' and ') || 'neither'}`,
        spec: 'WIRE §3',
      });
    },
  };
}

const capitalized = (word: string) => word.charAt(0).toUpperCase() + word.slice(1);

/**
 * How long the service holds a status read's call while a webhook moves the record: a quiet market
 * acknowledges the webhook well within the first, a loaded one within a longer one (each tried in
 * turn only when the read was answered first), all short of the 8 s a market's service call may
 * take by default (WIRE §6).
 */
const READ_HOLDS_MS = [1_000, 3_000, 6_000] as const;

/**
 * One status read raced by a webhook: the read's service call is held (the market has read its
 * record by then), CANCELED is delivered meanwhile, then the held call answers APPROVED. Whether
 * the webhook was acknowledged before the read was answered, and the status the market holds after.
 */
async function readRacedByWebhook(
  ctx: CheckContext,
  holdMs: number,
): Promise<{ raced: boolean; status: string }> {
  // APPROVED at the service, PENDING in the record: the read moves the record forward to APPROVED.
  const order = await approvedUnannounced(ctx);
  const raced = await withFaults(
    ctx,
    [{ operation: 'getOrder', action: 'delay', delay_ms: holdMs, times: 1, order_id: order.id }],
    async () => {
      let answered = false;
      // Settled into a value at once, so that a failed read is reported here, not as an unhandled rejection.
      const reading = marketStatus(ctx, order.id).then(
        () => undefined,
        (error: unknown) => error,
      );
      void reading.then(() => {
        answered = true;
      });
      // The fault fires when the market's call arrives: from then on that call is held.
      await pollUntil(async () => ((await ctx.sandbox.faultsRemaining()) === 0 ? true : undefined), {
        timeoutMs: MARKET_EFFECT_WAIT_MS,
        what: `the market's service call for its status read of ${order.id} (R-EP-05)`,
      });
      const { exchange } = await sendWebhook(ctx, statusEvent(order.id, 'CANCELED'));
      expectAck(exchange, false, `CANCELED for ${order.id} while its status read waits on the service`);
      const before = !answered;
      const failed = await reading;
      if (failed !== undefined) throw failed;
      return before;
    },
  );
  const { status } = await marketStatus(ctx, order.id);
  return { raced, status };
}

export const concurrencyChecks: ContractCheck[] = [
  {
    id: 'concurrency.status-read-during-webhook',
    title:
      'A status read whose service call is slow, while a webhook moves the record on, never writes its earlier view back: the record stays where the webhook put it',
    modes: BOTH_MODES,
    spec: 'WIRE §3, §5',
    rules: ['R-EP-05', 'R-STATE-02', 'R-STATE-03'],
    async run(ctx) {
      for (const holdMs of READ_HOLDS_MS) {
        const { raced, status } = await readRacedByWebhook(ctx, holdMs);
        // Raced or not, CANCELED is the only place a correct market can leave the order: a read
        // that came first moved it to APPROVED, and the webhook's CANCELED is a forward move from there.
        ensure(status === 'CANCELED', {
          expected: raced
            ? "CANCELED, where the webhook put the record while the read waited on the service: the read's forward move (PENDING → APPROVED) is applied to the status stored when it writes, where it is no move (a lock or a conditional update), never from the status it read before its service call"
            : 'CANCELED: the webhook, acknowledged after the status read was answered, moves the record from APPROVED to CANCELED',
          actual: `the market reports ${status}`,
          spec: 'WIRE §3, §5',
        });
        if (raced) return;
      }
      ctx.notExercised(
        'overlapping-requests',
        `the market acknowledged the webhook only after it answered the status read, each time (the read's service call held ${READ_HOLDS_MS.join(' ms, then ')} ms): it serializes them, so whether a read writes the status it read before its service call over a webhook's could not be seen`,
      );
    },
  },
  {
    id: 'concurrency.status-updates',
    title: `Status updates of one order (${CHAIN.join(' → ')}) delivered together, in every order, leave the record on the furthest status`,
    modes: BOTH_MODES,
    spec: 'WIRE §3, §4',
    rules: ['R-STATE-02', 'R-STATE-03', 'R-WH-13'],
    async run(ctx) {
      const wrong: string[] = [];
      for (let round = 0; round < STATUS_UPDATE_ROUNDS && wrong.length === 0; round++)
        wrong.push(...(await statusUpdateRound(ctx)));
      ensure(wrong.length === 0, {
        expected: `200 for each update and ${CHAIN.at(-1)} for every order: updates that arrive together are each applied only as a forward move from the status stored at that moment (a lock or a conditional update), never from a stale read`,
        actual: wrong.join('\n    '),
        spec: 'WIRE §3',
      });
    },
  },
  {
    id: 'concurrency.create-same-reference',
    title: `${RACERS} concurrent creates of one reference_id with equal bodies make one order: one 201, the others 200 with it`,
    modes: BOTH_MODES,
    spec: 'WIRE §5',
    rules: ['R-EP-01', 'R-EP-02'],
    async run(ctx) {
      const order = sampleOrder(ctx.unique('ref-race'));
      const answers = await ctx.http.together(
        Array.from({ length: RACERS }, () => () => postOrder(ctx, order)),
      );
      const created = answers.filter((a) => a.status === 201);
      ensure(created.length === 1 && answers.every((a) => a.status === 201 || a.status === 200), {
        expected: `one 201 and ${RACERS - 1} × 200 (the same order replayed) for ${RACERS} concurrent equal creates`,
        actual: `statuses ${statuses(answers)}`,
        exchange: answers.find((a) => a.status !== 200 && a.status !== 201) ?? created[1],
        spec: 'WIRE §5',
      });
      const ids = new Set(
        answers.map((a) => (isObject(a.json()) ? (a.json() as { id?: unknown }).id : undefined)),
      );
      ensure(ids.size === 1, {
        expected: 'every answer to name the same order',
        actual: `order IDs ${JSON.stringify([...ids])}`,
      });
      const atService = await ctx.sandbox.ordersByReference(order.reference_id);
      ensure(atService.length === 1, {
        expected: `one order at the service for reference_id ${order.reference_id}`,
        actual: `${atService.length} orders`,
        spec: 'WIRE §5',
      });
    },
  },
  {
    id: 'concurrency.create-conflicting-reference',
    title: `${RACERS} concurrent creates of one reference_id with different bodies make one order; the others are 409 idempotency_conflict`,
    modes: BOTH_MODES,
    spec: 'WIRE §5',
    rules: ['R-EP-03', 'R-ERR-08'],
    async run(ctx) {
      const reference = ctx.unique('ref-race');
      const answers = await ctx.http.together(
        Array.from(
          { length: RACERS },
          (_, i) => () => postOrder(ctx, sampleOrderOfQuantity(reference, i + 1)),
        ),
      );
      const created = answers.filter((a) => a.status === 201);
      ensure(created.length === 1, {
        expected: `exactly one 201 for ${RACERS} concurrent creates of reference_id ${reference} with different content`,
        actual: `statuses ${statuses(answers)}`,
        spec: 'WIRE §5',
      });
      for (const answer of answers.filter((a) => a.status !== 201)) {
        // The market's own conflict, not the service's refusal passed through (`conflict`, a 502).
        expectProblem(answer, 409, {
          what: `for a create of reference_id ${reference} racing one with other content`,
          code: 'idempotency_conflict',
          spec: 'WIRE §5',
        });
        const code = (answer.json() as { code?: unknown }).code;
        ensure(code === undefined || code === 'idempotency_conflict', {
          expected:
            'the market\'s own "idempotency_conflict" (or no code), not the service\'s code passed through',
          actual: `code ${JSON.stringify(code)}`,
          exchange: answer,
          spec: 'WIRE §2',
        });
      }
      const atService = await ctx.sandbox.ordersByReference(reference);
      ensure(atService.length === 1, {
        expected: `one order at the service for reference_id ${reference}`,
        actual: `${atService.length} orders`,
        spec: 'WIRE §5',
      });
    },
  },
  ...exclusiveActionPairs().map(actionRace),
  {
    id: 'concurrency.push-claims',
    title: `${RACERS} pushes of one user's claims at once: what the market keeps is what the service holds, scope by scope`,
    modes: DATA_SHARING_ONLY,
    spec: 'WIRE §7',
    rules: ['R-CLAIM-04', 'R-CLAIM-07'],
    async run(ctx) {
      const { user, credifyId } = await signedInAtService(ctx);
      const answers = await ctx.http.together(
        Array.from({ length: RACERS }, () => () => pushOwnClaims(ctx, user, credifyId)),
      );
      ensure(
        answers.some((a) => a.status === 200),
        {
          expected: `at least one of ${RACERS} concurrent pushes of ${user.id}'s own claims to be accepted (200)`,
          actual: `statuses ${statuses(answers)}`,
          exchange: answers[0],
          spec: 'WIRE §5',
        },
      );
      const stored = await ctx.storedClaims(user);
      if (stored === undefined)
        return ctx.notExercised(
          'stored-commitments',
          'the market shows no stored claims, so what it kept could not be compared with what the service holds',
        );
      // The service keeps the last token per scope; the provider checks the market's claims against
      // it. Commitments from one push and tokens from another fail that check for the user.
      const mismatched: string[] = [];
      for (const token of await ctx.sandbox.claimTokens(credifyId)) {
        const scope = stored[token.scopeName];
        const hash = scope === undefined ? undefined : await scopeHash(scope);
        if (hash !== token.scopeHash)
          mismatched.push(
            `${token.scopeName}: the service holds scope_hash ${token.scopeHash}, the stored claims hash to ${hash ?? '(no such scope stored)'}`,
          );
      }
      ensure(mismatched.length === 0, {
        expected: `the claims and commitments the market keeps for ${user.id} to hash to the scope hashes of the tokens the service holds after ${RACERS} concurrent pushes (one push's commitments with another's tokens fail the provider's check)`,
        actual: mismatched.join('\n    '),
        spec: 'WIRE §7',
      });
    },
  },
  {
    id: 'concurrency.duplicate-deliveries',
    title: `One readiness event delivered ${RACERS} times at once is acknowledged each time and has one effect: at most one payment, under one Idempotency-Key`,
    modes: DATA_SHARING_ONLY,
    spec: 'WIRE §3, §4',
    rules: ['R-WH-14', 'R-STATE-06', 'R-EP-09'],
    async run(ctx) {
      const id = await approvedOrder(ctx);
      await ctx.sandbox.ready(id);
      await ctx.sandbox.awaitStatusDelivery(id, 'DISBURSING');
      const since = await ctx.sandbox.lastCallId();
      const body = JSON.stringify({
        type: 'BNPL_DISBURSEMENT_REQUIREMENT_STATUS_UPDATED',
        order_id: id,
        is_fulfilled: true,
      });
      const eventId = ctx.unique('evt-race');
      const answers = await ctx.http.together(
        Array.from(
          { length: RACERS },
          () => async () => (await sendWebhook(ctx, body, { eventId })).exchange,
        ),
      );
      ensure(
        answers.every((a) => a.status === 200),
        {
          expected: `200 for each of ${RACERS} concurrent deliveries of event ${eventId}`,
          actual: `statuses ${statuses(answers)}`,
          exchange: answers.find((a) => a.status !== 200),
          spec: 'WIRE §4',
        },
      );
      const paid = await ctx.sandbox.disbursements(id);
      // A service that does not dedupe by state would pay once per distinct Idempotency-Key.
      const keys = new Set(
        (await ctx.sandbox.serviceCalls(since))
          .filter((c) => c.operation === 'disburseOrder' && isCallOnOrder(c, id))
          .map((c) => c.idempotencyKey ?? '(none)'),
      );
      ensure(paid <= 1 && keys.size <= 1, {
        expected: `at most one disbursement, under one Idempotency-Key, for one event delivered ${RACERS} times at once`,
        actual: `${paid} disbursement(s), disburse calls under ${keys.size} distinct Idempotency-Keys`,
        spec: 'WIRE §3, §6',
      });
    },
  },
];

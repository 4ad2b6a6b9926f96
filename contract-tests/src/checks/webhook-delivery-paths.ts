/**
 * How deliveries reach a market in production (WIRE §4): through a reverse proxy, whose `Host` is
 * not the public one, so the signed URL must come from configuration; and with the market's work
 * failing half-way, so the event ID must be recorded only with its effect, or a redelivery is lost.
 */

import { pollUntil } from '@bnpl-kit/core/testing';
import { ensure } from '../expect.js';
import { approvedOrder, approvedUnannounced } from '../support/approvals.js';
import { withFaults } from '../support/faults.js';
import { expectMarketStatus } from '../support/orders.js';
import { isCallOnOrder } from '../support/own-calls.js';
import { MARKET_EFFECT_WAIT_MS } from '../support/wait.js';
import { expectAck, sendWebhook, statusEvent } from '../support/webhooks.js';
import { BOTH_MODES, type ContractCheck, DATA_SHARING_ONLY } from '../types.js';

const PROXY_HOST = 'bnpl-market.internal:8080';

export const webhookDeliveryPathChecks: ContractCheck[] = [
  {
    id: 'webhook.host-header-ignored',
    title:
      "A delivery whose Host header is not PUBLIC_BASE_URL's (a reverse proxy) is verified for the registered URL",
    modes: BOTH_MODES,
    spec: 'WIRE §4',
    rules: ['R-WH-02'],
    async run(ctx) {
      const order = await approvedUnannounced(ctx);
      const body = statusEvent(order.id, 'APPROVED');
      const { exchange } = await sendWebhook(ctx, body, { host: PROXY_HOST });
      expectAck(
        exchange,
        false,
        `a delivery signed for ${ctx.webhookUrl} that arrived with Host: ${PROXY_HOST} (the signed URL is PUBLIC_BASE_URL + /v1/webhook, never built from Host)`,
      );
      await expectMarketStatus(ctx, order.id, 'APPROVED', 'its APPROVED delivery was acknowledged');
    },
  },
  {
    id: 'webhook.effect-before-record',
    title:
      'A readiness delivery whose disbursement fails at the service is not recorded as processed: a redelivery pays the order (not exercised for a market that leaves disbursement to its systems: --lacks disburse-on-readiness)',
    modes: DATA_SHARING_ONLY,
    spec: 'WIRE §4',
    rules: ['R-WH-19', 'R-WH-18'],
    async run(ctx) {
      const id = await approvedOrder(ctx);
      const since = await ctx.sandbox.lastCallId();
      const disburseCalls = async () =>
        (await ctx.sandbox.serviceCalls(since)).filter(
          (c) => c.operation === 'disburseOrder' && isCallOnOrder(c, id),
        );
      // The fault stays until the market's first disbursement call met it: during the webhook's
      // processing, or later from a job the webhook enqueued (one local write with the event ID).
      const { delivery, tried } = await withFaults(
        ctx,
        [{ operation: 'disburseOrder', action: 'error', status: 500, order_id: id }],
        async () => {
          await ctx.sandbox.ready(id);
          const delivery = await ctx.sandbox.awaitStatusDelivery(id, 'DISBURSING');
          const tried = await pollUntil(
            async () => {
              const calls = await disburseCalls();
              return calls.length > 0 ? calls : undefined;
            },
            { timeoutMs: MARKET_EFFECT_WAIT_MS, what: `a disbursement call for ${id}` },
          ).catch(() => []);
          return { delivery, tried };
        },
      );
      // A market that never asks for its money on readiness leaves it to its systems (R-STATE-06):
      // its effect cannot fail over HTTP here, so nothing about R-WH-19 was shown.
      if (tried.length === 0)
        ctx.notExercised(
          'disburse-on-readiness',
          `the market made no disbursement call for ${id} within ${MARKET_EFFECT_WAIT_MS / 1000} s of its readiness delivery, so no effect of a webhook could be made to fail (R-WH-19)`,
        );
      // The service redelivers (the market's 5xx asks for it; after a 2xx, a replay is what an
      // operator would do). Either way the disbursement must happen in the end, exactly once.
      const replayed = await ctx.sandbox.replay(delivery.id);
      const answer = replayed.attempts.at(-1);
      const first = delivery.attempts.at(-1);
      const failedFirst = (first?.responseStatus ?? 0) >= 300;
      if (failedFirst) {
        ensure(answer?.responseStatus === 200 && !/"duplicate"\s*:\s*true/.test(answer.responseBody ?? ''), {
          expected: `the redelivery of event ${delivery.eventId}, whose processing failed (${first?.responseStatus}), to be processed (200 without "duplicate")`,
          actual: `${answer?.responseStatus ?? 'no answer'} ${answer?.responseBody ?? ''}`,
        });
      }
      const count = await pollUntil(
        async () => {
          const n = await ctx.sandbox.disbursements(id);
          return n > 0 ? n : undefined;
        },
        { timeoutMs: MARKET_EFFECT_WAIT_MS, what: `a disbursement of ${id}` },
      ).catch(() => 0);
      ensure(count === 1, {
        expected: `order ${id} to be disbursed once after its readiness delivery failed half-way and was redelivered (an event ID is recorded with its effect, never before)`,
        actual: `${count} disbursements; the market answered ${first?.responseStatus} then ${answer?.responseStatus} ${answer?.responseBody ?? ''}`,
      });
    },
  },
];

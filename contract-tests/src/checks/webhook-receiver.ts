/**
 * The webhook receiver's own rules (WIRE §4): raw bytes are what is verified, old deliveries are
 * refused even when replayed whole, the time window holds at both edges in both directions, header
 * names are read in any case, unknown event types are acknowledged, oversized bodies are 413, and a
 * wrong content type never turns into a 5xx.
 */
import { DEFAULT_TOLERANCE_SECONDS } from '@bnpl-kit/core/wire';
import { ensure, expectProblem, fail } from '../expect.js';
import { approvedAtService, approvedUnannounced } from '../support/approvals.js';
import { describeMarketClock, marketClockOffsetSeconds } from '../support/market-clock.js';
import { createOrder, expectMarketStatus } from '../support/orders.js';
import { expectAck, sendWebhook, statusEvent } from '../support/webhooks.js';
import { BOTH_MODES, type ContractCheck } from '../types.js';
import { ContractViolation } from '../violation.js';

export const webhookReceiverChecks: ContractCheck[] = [
  {
    id: 'webhook.raw-bytes-verified',
    title: 'A pretty-printed body is verified over its raw bytes, not a re-serialized copy',
    modes: BOTH_MODES,
    spec: 'WIRE §4',
    rules: ['R-WH-04'],
    async run(ctx) {
      const order = await approvedUnannounced(ctx);
      const pretty = `${JSON.stringify(JSON.parse(statusEvent(order.id, 'APPROVED')), null, 2)}\n`;
      const { exchange } = await sendWebhook(ctx, pretty);
      expectAck(exchange, false, 'a pretty-printed body signed over exactly its bytes');
      await expectMarketStatus(ctx, order.id, 'APPROVED', 'its APPROVED webhook was acknowledged');
    },
  },
  {
    id: 'webhook.replay-old-delivery',
    title: `A delivery replayed after the ±${DEFAULT_TOLERANCE_SECONDS} s window is refused (401), even with its original event ID`,
    modes: BOTH_MODES,
    spec: 'WIRE §4',
    rules: ['R-WH-09'],
    async run(ctx) {
      const { order, delivery } = await approvedAtService(ctx);
      const old = ctx.toleranceSeconds + 60;
      const replay = await sendWebhook(ctx, delivery.body, { eventId: delivery.eventId, ageSeconds: old });
      expectProblem(replay.exchange, 401, {
        what: `for the service's delivery ${delivery.eventId} replayed with a timestamp ${old} s old`,
        code: 'timestamp_out_of_window',
        spec: 'WIRE §4',
      });
      const stale = await sendWebhook(ctx, statusEvent(order.id, 'CANCELED'), { ageSeconds: old });
      expectProblem(stale.exchange, 401, {
        what: `for a correctly signed CANCELED webhook ${old} s old`,
        code: 'timestamp_out_of_window',
        spec: 'WIRE §4',
      });
      await expectMarketStatus(ctx, order.id, 'APPROVED', 'only the fresh APPROVED delivery was valid');
    },
  },
  {
    id: 'webhook.time-window',
    title: `Both edges of the ±${DEFAULT_TOLERANCE_SECONDS} s window, in both directions: a delivery just inside (past or future) is processed, one just outside is refused (401)`,
    modes: BOTH_MODES,
    spec: 'WIRE §4',
    rules: ['R-WH-09', 'R-WH-13'],
    async run(ctx) {
      // 5 s clear of each edge: whole-second timestamps and the trip over HTTP cannot hit it exactly.
      const inside = ctx.toleranceSeconds - 5;
      const outside = ctx.toleranceSeconds + 5;
      const order = await createOrder(ctx);
      // The status the service holds, so an accepted delivery moves nothing and the next may follow.
      const body = statusEvent(order.id, 'PENDING');
      const wrong: string[] = [];
      let clockOffset: number | undefined;
      for (const [age, accepted] of [
        [inside, true],
        [-inside, true],
        [outside, false],
        [-outside, false],
      ] as const) {
        const when = `${Math.abs(age)} s ${age >= 0 ? 'in the past' : 'in the future'}`;
        const sentAt = Date.now();
        const { exchange } = await sendWebhook(ctx, body, { ageSeconds: age });
        clockOffset ??= marketClockOffsetSeconds(exchange, sentAt, Date.now());
        try {
          if (accepted) expectAck(exchange, false, `a delivery timestamped ${when} (inside the window)`);
          else
            expectProblem(exchange, 401, {
              what: `for a delivery timestamped ${when} (outside the window)`,
              code: 'timestamp_out_of_window',
              spec: 'WIRE §4',
            });
        } catch (error) {
          wrong.push(`${when}: HTTP ${exchange.status} ${exchange.text.slice(0, 160)}`);
          if (!(error instanceof ContractViolation)) throw error;
        }
      }
      const clock = describeMarketClock(clockOffset);
      ensure(wrong.length === 0, {
        expected: `a window of ±${ctx.toleranceSeconds} s in both directions (R-WH-09): deliveries ${inside} s old or ${inside} s ahead processed (200), ${outside} s old or ahead refused (401)`,
        actual: [...wrong, ...(clock ? [`(${clock})`] : [])].join('\n    '),
        spec: 'WIRE §4',
        rule: 'R-WH-09',
      });
    },
  },
  {
    id: 'webhook.header-name-case',
    title:
      'Header names are case-insensitive: a delivery with every header name in upper case, and one in lower case, is verified and processed',
    modes: BOTH_MODES,
    spec: 'WIRE §4',
    rules: ['R-WH-08', 'R-WH-13'],
    async run(ctx) {
      const order = await createOrder(ctx);
      // APPROVED then CANCELED: each must be processed, which the market's record shows.
      const steps = [
        ['upper', 'APPROVED'],
        ['lower', 'CANCELED'],
      ] as const;
      for (const [nameCase, status] of steps) {
        const { exchange } = await sendWebhook(ctx, statusEvent(order.id, status), { nameCase });
        expectAck(exchange, false, `a ${status} delivery whose header names are all in ${nameCase} case`);
      }
      await expectMarketStatus(ctx, order.id, 'CANCELED', 'both deliveries were processed');
    },
  },
  {
    id: 'webhook.unknown-event-type',
    title: 'A correctly signed event of an unknown type is acknowledged (2xx)',
    modes: BOTH_MODES,
    spec: 'WIRE §4',
    rules: ['R-WH-06'],
    async run(ctx) {
      const body = JSON.stringify({
        type: 'BNPL_SOMETHING_NEW_HAPPENED',
        id: ctx.unique('thing'),
        detail: { a: 1 },
      });
      const { exchange } = await sendWebhook(ctx, body);
      ensure(exchange.status >= 200 && exchange.status < 300, {
        expected: 'a 2xx acknowledgement for an event type the market does not know',
        exchange,
      });
    },
  },
  {
    id: 'webhook.oversized-body',
    title:
      'A webhook body one byte over 256 KiB is refused with 413 and has no effect; exactly 256 KiB is processed',
    modes: BOTH_MODES,
    spec: 'WIRE §4',
    rules: ['R-WH-07', 'R-ERR-09'],
    async run(ctx) {
      const order = await createOrder(ctx);
      /** The event padded with ASCII to exactly `bytes` bytes. */
      const padded = (status: string, bytes: number) => {
        const event = JSON.parse(statusEvent(order.id, status)) as Record<string, unknown>;
        const overhead = JSON.stringify({ ...event, padding: '' }).length;
        return JSON.stringify({ ...event, padding: 'x'.repeat(bytes - overhead) });
      };
      const body = padded('CANCELED', ctx.maxBodyBytes + 1);
      // A server may answer 413 before reading the body and then drop the connection: use a fresh one.
      const { exchange } = await sendWebhook(ctx, body, { headers: { Connection: 'close' } });
      expectProblem(exchange, 413, {
        what: `for a ${body.length}-byte webhook body`,
        code: 'payload_too_large',
        spec: 'WIRE §4',
      });
      // The bound's valid side: a cap counted another way (256 000 bytes, a smaller default) refuses it.
      const atCap = padded('APPROVED', ctx.maxBodyBytes);
      const accepted = await sendWebhook(ctx, atCap, { headers: { Connection: 'close' } });
      expectAck(accepted.exchange, false, `a ${atCap.length}-byte webhook body (exactly the cap, R-WH-07)`);
      await expectMarketStatus(
        ctx,
        order.id,
        'APPROVED',
        'its CANCELED webhook was a byte over the cap, its APPROVED one exactly the cap',
      );
    },
  },
  {
    id: 'webhook.wrong-content-type',
    title:
      'A signed webhook with Content-Type text/plain is acknowledged or refused with 415, never an error',
    modes: BOTH_MODES,
    spec: 'WIRE §4',
    rules: ['R-ERR-10'],
    async run(ctx) {
      // WIRE §4 does not make the content type part of verification; WIRE §2 says a refusal is a 415.
      const order = await approvedUnannounced(ctx);
      const { exchange } = await sendWebhook(ctx, statusEvent(order.id, 'APPROVED'), {
        headers: { 'Content-Type': 'text/plain' },
      });
      if (exchange.status === 415) {
        expectProblem(exchange, 415, { what: 'for a webhook sent as text/plain' });
      } else if (exchange.status >= 200 && exchange.status < 300) {
        await expectMarketStatus(ctx, order.id, 'APPROVED', 'its APPROVED webhook was acknowledged');
      } else {
        fail({ expected: '2xx (the signature is what matters) or 415 problem+json', exchange });
      }
    },
  },
];

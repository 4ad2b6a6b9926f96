/**
 * Webhook checks that vary what a real service varies (WIRE §4, §6), with generated cases (fast-check
 * at the run's seed, support/generated.ts): multi-byte bodies, retries re-signed with a new timestamp,
 * unknown statuses and event types, status case, forwarded headers, and timestamps and signatures in
 * malformed-but-plausible encodings.
 */
import { EVENT_TYPES, ORDER_STATUSES } from '@bnpl-kit/core';
import { base64UrlDecode, unstorableReason } from '@bnpl-kit/core/wire';
import fc from 'fast-check';
import { ensure, expectProblem } from '../expect.js';
import { approvedAtService, approvedUnannounced } from '../support/approvals.js';
import { generated, multiByteText } from '../support/generated.js';
import { nearMisses } from '../support/near-misses.js';
import { createOrder, expectMarketStatus, marketStatus } from '../support/orders.js';
import { expectAck, sendWebhook, statusEvent } from '../support/webhooks.js';
import { BOTH_MODES, type CheckContext, type ContractCheck } from '../types.js';

const KNOWN = new Set<string>(ORDER_STATUSES);

/** Status words a service may grow: upper snake case, never one of the six. */
const unknownStatus = fc
  .array(
    fc.constantFrom('ON', 'HOLD', 'REFUND', 'PARTIALLY', 'REFUNDED', 'EXPIRED', 'REVIEW', 'IN', 'DISPUTED'),
    {
      minLength: 1,
      maxLength: 3,
    },
  )
  .map((words) => words.join('_'))
  .filter((status) => !KNOWN.has(status));

/** Event types a service may grow. */
const unknownType = fc
  .array(
    fc.constantFrom('BNPL', 'OFFER', 'ORDER', 'REFUND', 'INSTALLMENT', 'PLAN', 'DUE', 'UPDATED', 'CREATED'),
    {
      minLength: 2,
      maxLength: 4,
    },
  )
  .map((words) => words.join('_'));

/**
 * The unknown types nearest the four known ones (WIRE §4, matched exactly; support/near-misses.ts),
 * each to be acknowledged and left alone. A market that matches types case-insensitively, trimmed,
 * normalised or by substring takes them for the known type: a status update applies its
 * order_status, the others meet their schema without their members (a 400).
 */
const nearMissEventTypes = () =>
  Object.values(EVENT_TYPES)
    .flatMap((type) => nearMisses(type, 'exact'))
    // A type with a control character in it (`\tBNPL_…`) may be refused as unstorable (R-WH-06).
    .filter((type) => unstorableReason(type) === undefined);

/** `APPROVED` in a case other than upper (WIRE §6: matched case-insensitively). */
const approvedInSomeCase = fc
  .array(fc.boolean(), { minLength: 8, maxLength: 8 })
  .map((upper) => [...'approved'].map((ch, i) => (upper[i] ? ch.toUpperCase() : ch)).join(''))
  .filter((s) => s !== 'APPROVED');

function iso(date: Date): string {
  return date.toISOString().slice(0, 19);
}

/** Timestamps for now that a lenient parser reads, each not the one exact format of WIRE §4. */
function malformedTimestamps(ctx: CheckContext): [string, string][] {
  const now = new Date();
  const [ms, offsetMinutes] = generated(
    ctx,
    fc.tuple(fc.integer({ min: 0, max: 999 }), fc.integer({ min: 1, max: 12 })),
    1,
  )[0]!;
  const shifted = new Date(now.getTime() + offsetMinutes * 3_600_000);
  const offset = `+${String(offsetMinutes).padStart(2, '0')}:00`;
  return [
    ['with milliseconds', `${iso(now)}.${String(ms).padStart(3, '0')}Z`],
    ['with a numeric offset instead of Z', `${iso(shifted)}${offset}`],
    ['with +00:00 instead of Z', `${iso(now)}+00:00`],
    ['in lower case', `${iso(now).replace('T', 't')}z`],
    ['with a space instead of T', `${iso(now).replace('T', ' ')}Z`],
    ['without the Z', iso(now)],
    ['as epoch seconds', String(Math.floor(now.getTime() / 1000))],
    ['as an HTTP date', now.toUTCString()],
    // The exact shape with something before or after it: what an unanchored pattern accepts.
    ['with an expanded (signed, six-digit) year', `+00${iso(now)}Z`],
    ['with an RFC 9557 time-zone suffix', `${iso(now)}Z[UTC]`],
    // The exact shape, inside the window once read, but no real time: what a parser that rolls
    // fields over takes (PHP's DateTime::createFromFormat, mktime, Java's lenient Calendar).
    ['with its seconds past 59, the minute before written (10:09:65 for 10:10:05)', rolledOver(now)],
  ];
}

/** An instant 30 to 50 s before `now`, written as the minute before it and 60 to 99 seconds. */
function rolledOver(now: Date): string {
  let instant = new Date(now.getTime() - 30_000);
  while (instant.getUTCSeconds() > 39) instant = new Date(instant.getTime() - 1_000);
  const minuteBefore = iso(new Date(instant.getTime() - 60_000)).slice(0, 17);
  return `${minuteBefore}${instant.getUTCSeconds() + 60}Z`;
}

/** The same 64 signature bytes in encodings a lenient decoder accepts but WIRE §4 does not. */
function malformedSignatures(signature: string): [string, string][] {
  const bytes = Buffer.from(base64UrlDecode(signature) ?? new Uint8Array());
  const standard = bytes.toString('base64');
  return [
    ['standard base64 with padding', standard],
    // 86 characters, no padding, but `+` and `/`: a length check and a decoder reading both alphabets take it.
    ['in the standard alphabet without padding', standard.replace(/=+$/, '')],
    ['base64url with padding', `${signature}==`],
    ['with a space inside', `${signature.slice(0, 43)} ${signature.slice(43)}`],
    ['as hex', bytes.toString('hex')],
  ];
}

export const webhookGeneratedChecks: ContractCheck[] = [
  {
    id: 'webhook.multibyte-body',
    title: 'Bodies with multi-byte UTF-8 (Vietnamese text, emoji) are verified over their raw bytes',
    modes: BOTH_MODES,
    spec: 'WIRE §4',
    rules: ['R-WH-04'],
    async run(ctx) {
      const order = await approvedUnannounced(ctx);
      const notes = generated(ctx, multiByteText, 5);
      for (const [i, note] of notes.entries()) {
        const event = {
          type: 'BNPL_ORDER_STATUS_UPDATED',
          order_id: order.id,
          order_status: 'APPROVED',
          note,
        };
        // Every other body keeps the characters escaped-free and pretty-printed, as a real sender may.
        const body = i % 2 === 0 ? JSON.stringify(event) : `${JSON.stringify(event, null, 2)}\n`;
        const { exchange } = await sendWebhook(ctx, body);
        expectAck(exchange, false, `a body carrying ${JSON.stringify(note)} as UTF-8 (seed ${ctx.seed})`);
      }
      await expectMarketStatus(ctx, order.id, 'APPROVED', 'its APPROVED webhooks carried multi-byte text');
    },
  },
  {
    id: 'webhook.resigned-retry',
    title: 'A retry re-signed with a new timestamp is the same event: duplicate, no second effect',
    modes: BOTH_MODES,
    spec: 'WIRE §4',
    rules: ['R-WH-15', 'R-WH-14'],
    async run(ctx) {
      const { order, delivery } = await approvedAtService(ctx);
      const offsets = generated(ctx, fc.integer({ min: 2, max: Math.max(3, ctx.toleranceSeconds - 30) }), 3);
      for (const [i, seconds] of offsets.entries()) {
        // The first retries repeat the body; the last carries another status, which must change nothing.
        const body = i < offsets.length - 1 ? delivery.body : statusEvent(order.id, 'CANCELED');
        const age = i % 2 === 0 ? seconds : -Math.min(seconds, 60);
        const { exchange } = await sendWebhook(ctx, body, { eventId: delivery.eventId, ageSeconds: age });
        expectAck(
          exchange,
          true,
          `event ${delivery.eventId} retried with a timestamp ${age} s ${age >= 0 ? 'older' : 'newer'} and a new signature (seed ${ctx.seed})`,
        );
      }
      await expectMarketStatus(ctx, order.id, 'APPROVED', 'the retries repeated an event already processed');
    },
  },
  {
    id: 'webhook.unknown-order-status',
    title: 'An order_status outside the six is acknowledged (200), recorded as processed, and moves nothing',
    modes: BOTH_MODES,
    spec: 'WIRE §6',
    rules: ['R-SVC-10', 'R-SVC-14'],
    async run(ctx) {
      // The service holds this order PENDING and certify delivers APPROVED itself: reconciling with
      // the service cannot bring back APPROVED, so a record that took an unknown value shows (R-EP-05).
      const order = await createOrder(ctx);
      const approved = await sendWebhook(ctx, statusEvent(order.id, 'APPROVED'));
      expectAck(approved.exchange, false, `APPROVED for the PENDING order ${order.id}`);
      for (const status of generated(ctx, unknownStatus, 4)) {
        const sent = await sendWebhook(ctx, statusEvent(order.id, status));
        expectAck(
          sent.exchange,
          false,
          `an order_status "${status}" the market does not know (seed ${ctx.seed})`,
        );
        const again = await sendWebhook(ctx, statusEvent(order.id, status), { eventId: sent.eventId });
        expectAck(again.exchange, true, `the same "${status}" event again (it was recorded as processed)`);
      }
      const { status, exchange } = await marketStatus(ctx, order.id);
      ensure(status === 'APPROVED', {
        expected: `the market to report ${order.id} APPROVED: only unknown statuses came after APPROVED, and the service (PENDING) cannot move it back`,
        actual: `status ${status} (an unknown status was stored or acted on)`,
        exchange,
        spec: 'WIRE §6',
        rule: 'R-SVC-10',
      });
    },
  },
  {
    id: 'webhook.unknown-event-types',
    title:
      'Correctly signed events of unknown types, those nearest the four known ones and generated ones, are acknowledged (2xx) and move no order',
    modes: BOTH_MODES,
    spec: 'WIRE §4',
    rules: ['R-WH-06'],
    async run(ctx) {
      const order = await createOrder(ctx);
      for (const type of [...nearMissEventTypes(), ...generated(ctx, unknownType, 4)]) {
        const body = JSON.stringify({
          type,
          order_id: order.id,
          order_status: 'PAID',
          detail: { đơn: 'hàng' },
        });
        const { exchange } = await sendWebhook(ctx, body);
        ensure(exchange.status >= 200 && exchange.status < 300, {
          expected: `a 2xx acknowledgement for the event type ${JSON.stringify(type)}, which is none of the four WIRE §4 names (matched exactly; seed ${ctx.seed})`,
          exchange,
          spec: 'WIRE §4',
        });
      }
      await expectMarketStatus(ctx, order.id, 'PENDING', 'only events of unknown types named it');
    },
  },
  {
    id: 'webhook.status-case-insensitive',
    title: 'A known order_status in another case (approved, Approved) is read as that status',
    modes: BOTH_MODES,
    spec: 'WIRE §6',
    rules: ['R-SVC-13'],
    async run(ctx) {
      for (const status of generated(ctx, approvedInSomeCase, 2)) {
        // The service holds this order PENDING: reconciling with it cannot make it APPROVED (R-EP-05
        // reconciles forward only), so an APPROVED record here can only come from this webhook. The
        // same proof in both modes, whatever the market answers while the service fails.
        const order = await createOrder(ctx);
        const { exchange } = await sendWebhook(ctx, statusEvent(order.id, status));
        expectAck(exchange, false, `order_status "${status}" (seed ${ctx.seed})`);
        const { status: stored, exchange: read } = await marketStatus(ctx, order.id);
        ensure(stored === 'APPROVED', {
          expected: `the market to report ${order.id} APPROVED after an acknowledged order_status "${status}" (the service still holds it PENDING, so only the webhook could have moved it)`,
          actual: `status ${stored} (the update was not read case-insensitively)`,
          exchange: read,
          spec: 'WIRE §6',
          rule: 'R-SVC-13',
        });
      }
    },
  },
  {
    id: 'webhook.invalid-event-body',
    title: 'A correctly signed body that is not JSON, or breaks its event schema, is a 400 problem',
    modes: BOTH_MODES,
    spec: 'WIRE §4',
    rules: ['R-WH-17', 'R-SVC-14'],
    async run(ctx) {
      const order = await createOrder(ctx);
      const bodies: [string, string][] = [
        ['a body that is not JSON', '{"type": "BNPL_ORDER_STATUS_UPDATED", "order_id": '],
        // JSON, but no event: not an object, or an object without a type (not an unknown type).
        ['a JSON array', JSON.stringify([{ type: 'BNPL_ORDER_STATUS_UPDATED', order_id: order.id }])],
        ['an event without type', JSON.stringify({ order_id: order.id, order_status: 'APPROVED' })],
        [
          'a status update without order_id',
          JSON.stringify({ type: 'BNPL_ORDER_STATUS_UPDATED', order_status: 'APPROVED' }),
        ],
        [
          'a status update whose order_status is a number',
          JSON.stringify({ type: 'BNPL_ORDER_STATUS_UPDATED', order_id: order.id, order_status: 3 }),
        ],
        [
          // WIRE §6 R-SVC-14: the bound of the event schema; R-SVC-10 covers values within it only.
          'a status update whose order_status has 65 characters',
          JSON.stringify({
            type: 'BNPL_ORDER_STATUS_UPDATED',
            order_id: order.id,
            order_status: 'X'.repeat(65),
          }),
        ],
        [
          'a status update whose order_status is empty',
          JSON.stringify({ type: 'BNPL_ORDER_STATUS_UPDATED', order_id: order.id, order_status: '' }),
        ],
        [
          'a requirement event without order_id',
          JSON.stringify({ type: 'BNPL_DISBURSEMENT_REQUIREMENT_STATUS_UPDATED', is_fulfilled: true }),
        ],
        [
          'a requirement event whose is_fulfilled is "yes"',
          JSON.stringify({
            type: 'BNPL_DISBURSEMENT_REQUIREMENT_STATUS_UPDATED',
            order_id: order.id,
            is_fulfilled: 'yes',
          }),
        ],
      ];
      for (const [what, body] of bodies) {
        const { exchange } = await sendWebhook(ctx, body);
        expectProblem(exchange, 400, {
          what: `for a correctly signed webhook with ${what}`,
          spec: 'WIRE §4',
        });
      }
      await expectMarketStatus(ctx, order.id, 'PENDING', 'every webhook for it was malformed');
    },
  },
  {
    id: 'webhook.forwarded-headers-ignored',
    title: 'X-Forwarded-Host / X-Forwarded-Proto / Forwarded from a proxy do not change the URL verified',
    modes: BOTH_MODES,
    spec: 'WIRE §4',
    rules: ['R-WH-02'],
    async run(ctx) {
      const order = await approvedUnannounced(ctx);
      const registered = new URL(ctx.webhookUrl);
      const proxyHost = `edge-${ctx.unique('proxy')}.example.net`;
      const proto = registered.protocol === 'https:' ? 'http' : 'https';
      const { exchange } = await sendWebhook(ctx, statusEvent(order.id, 'APPROVED'), {
        headers: {
          'X-Forwarded-Host': proxyHost,
          'X-Forwarded-Proto': proto,
          'X-Forwarded-Port': proto === 'https' ? '443' : '80',
          Forwarded: `for=203.0.113.7;host=${proxyHost};proto=${proto}`,
        },
      });
      expectAck(
        exchange,
        false,
        `a delivery through a proxy (X-Forwarded-Host ${proxyHost}, proto ${proto}) signed for ${ctx.webhookUrl}`,
      );
      await expectMarketStatus(ctx, order.id, 'APPROVED', 'its APPROVED webhook was acknowledged');
    },
  },
  {
    id: 'webhook.malformed-encodings',
    title:
      'Timestamps and signatures in malformed-but-plausible encodings are refused (401), even when signed',
    modes: BOTH_MODES,
    spec: 'WIRE §4',
    rules: ['R-WH-01', 'R-WH-05'],
    async run(ctx) {
      const order = await createOrder(ctx);
      const body = statusEvent(order.id, 'APPROVED');
      for (const [what, timestamp] of malformedTimestamps(ctx)) {
        const { exchange } = await sendWebhook(ctx, body, { rawTimestamp: timestamp });
        expectProblem(exchange, 401, {
          what: `for X-Event-Timestamp "${timestamp}" (${what}), signed over exactly that text (seed ${ctx.seed})`,
          spec: 'WIRE §4',
        });
      }
      // A signature whose bytes hold a 62 or 63 sextet (`-` or `_`), so that its standard-alphabet
      // spelling differs (`+`, `/`): most do; a few event IDs more find one.
      let good = await ctx.sandbox.signWebhook({ url: ctx.webhookUrl, body, eventId: ctx.unique('evt') });
      for (let tries = 0; tries < 20 && !/[-_]/.test(good.headers.Signature ?? ''); tries++)
        good = await ctx.sandbox.signWebhook({ url: ctx.webhookUrl, body, eventId: ctx.unique('evt') });
      for (const [what, signature] of malformedSignatures(good.headers.Signature ?? '')) {
        const { exchange } = await sendWebhook(ctx, body, {
          eventId: good.headers['X-Event-Id'] ?? '',
          headers: { Signature: signature, 'X-Event-Timestamp': good.headers['X-Event-Timestamp'] ?? '' },
        });
        expectProblem(exchange, 401, {
          what: `for a valid signature sent ${what}`,
          spec: 'WIRE §4',
        });
      }
      await expectMarketStatus(ctx, order.id, 'PENDING', 'every webhook for it was malformed');
    },
  },
];

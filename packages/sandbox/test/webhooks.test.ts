/** The webhook sender: signatures, retry schedule and give-up, replay, every webhook fault. */
import { isKitError } from '@bnpl-kit/core';
import { parseWebhookEvent } from '@bnpl-kit/core/wire';
import { describe, expect, it } from 'vitest';
import type { ReadinessVia, Sandbox } from '../src/index.js';
import { DEFAULT_RETRY_SCHEDULE_MS } from '../src/webhooks/types.js';
import { type directClient, hang, orderInput, startSandbox, status, verify, WEBHOOK_URL } from './support.js';

const setup = startSandbox;

async function newOrder(s: Sandbox, client: ReturnType<typeof directClient>, reference = 'order-1') {
  const order = await client.createOrder(orderInput(reference));
  return s.orders.get(order.id)!;
}

/** A new order the provider approved and confirmed ready for disbursement (`via`). */
async function readyOrder(s: Sandbox, client: ReturnType<typeof directClient>, via?: ReadinessVia) {
  const order = await newOrder(s, client);
  s.orders.approve(order.id);
  s.orders.confirmReadiness(order.id, via);
  return order;
}

describe('signed deliveries', () => {
  it('are verified by core verifyWebhook with the key the public-key endpoint publishes', async () => {
    const { sandbox, market, client } = setup();
    const order = await newOrder(sandbox, client);
    sandbox.orders.approve(order.id);
    await sandbox.webhooks.idle();
    expect(market.received).toHaveLength(1);
    const webhook = market.received[0]!;
    const verified = await verify(sandbox, webhook);
    expect(verified.eventId).toMatch(/^evt_/);
    expect(webhook.headers).toMatchObject({
      'x-signature-algorithm': 'EdDSA',
      'content-type': 'application/json',
      accept: 'application/json',
    });
    expect(webhook.headers['x-event-timestamp']).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    expect(parseWebhookEvent(webhook.body)).toEqual({
      type: 'BNPL_ORDER_STATUS_UPDATED',
      orderId: order.id,
      orderStatus: 'APPROVED',
    });
    expect(await client.getSigningPublicKey('org-market')).toBe(await sandbox.publicKey());
  });

  it('go to every registered URL, each signed for its own URL, sharing one event ID', async () => {
    const second = 'https://backup.market.test/hooks';
    const { sandbox, market, client } = setup({}, { webhookUrls: [WEBHOOK_URL, second] });
    sandbox.orders.reject((await newOrder(sandbox, client)).id);
    await sandbox.webhooks.idle();
    expect(market.received.map((r) => r.url).sort()).toEqual([second, WEBHOOK_URL].sort());
    for (const webhook of market.received) await verify(sandbox, webhook);
    const forged = { ...market.received[0]!, url: market.received[1]!.url };
    await expect(verify(sandbox, forged)).rejects.toSatisfy((e) => isKitError(e, 'signature_invalid'));
    expect(new Set(sandbox.webhooks.list().map((d) => d.eventId)).size).toBe(1);
  });

  it('follow the order life: approve, readiness (both signals), disburse', async () => {
    const { sandbox, market, client } = setup();
    const order = await readyOrder(sandbox, client);
    await client.disburseOrder(order.id, {});
    await sandbox.webhooks.idle();
    expect(market.payloads()).toEqual([
      { type: 'BNPL_ORDER_STATUS_UPDATED', order_id: order.id, order_status: 'APPROVED' },
      { type: 'BNPL_ORDER_STATUS_UPDATED', order_id: order.id, order_status: 'DISBURSING' },
      { type: 'BNPL_DISBURSEMENT_REQUIREMENT_STATUS_UPDATED', order_id: order.id, is_fulfilled: true },
      { type: 'BNPL_ORDER_STATUS_UPDATED', order_id: order.id, order_status: 'PAID' },
    ]);
  });
});

describe('retries', () => {
  it('follow 0 s, 5 s, 30 s, 2 min, 10 min, 1 h, 6 h, then give up', async () => {
    const { sandbox, market, client, clock } = setup();
    market.answerNext(...Array.from({ length: 7 }, () => status(500)));
    const start = clock.now();
    sandbox.orders.approve((await newOrder(sandbox, client)).id);
    await sandbox.webhooks.idle();
    const [delivery] = sandbox.webhooks.list();
    expect(delivery?.status).toBe('retrying');
    expect(delivery?.nextAttemptAt).toBe(start + 5_000);
    await sandbox.tick(8 * 60 * 60 * 1000);
    expect(delivery?.status).toBe('failed');
    const offsets = delivery!.attempts.map((a) => a.startedAt - start);
    const cumulative = DEFAULT_RETRY_SCHEDULE_MS.map((_, i) =>
      DEFAULT_RETRY_SCHEDULE_MS.slice(0, i + 1).reduce((a, b) => a + b, 0),
    );
    expect(offsets).toEqual(cumulative);
    expect(delivery!.attempts.every((a) => a.outcome === 'http_error' && a.responseStatus === 500)).toBe(
      true,
    );
    expect(market.received).toHaveLength(7);
    // Each attempt is signed at its own time, so a retry hours later still passes the time window.
    for (const [i, webhook] of market.received.entries())
      await verify(sandbox, webhook, start + cumulative[i]!);
  });

  it('stop at the first 2xx', async () => {
    const { sandbox, market, client } = setup();
    market.answerNext(status(503), status(404));
    sandbox.orders.approve((await newOrder(sandbox, client)).id);
    await sandbox.tick(60_000);
    const [delivery] = sandbox.webhooks.list();
    expect(delivery?.status).toBe('delivered');
    expect(delivery?.attempts.map((a) => a.responseStatus)).toEqual([503, 404, 200]);
  });

  it('treat no answer within 10 s as a failed attempt', async () => {
    const { sandbox, market, client } = setup();
    market.answerNext(hang);
    sandbox.orders.approve((await newOrder(sandbox, client)).id);
    await sandbox.tick(9_999);
    expect(sandbox.webhooks.list()[0]?.status).toBe('in_flight');
    await sandbox.tick(1);
    const [delivery] = sandbox.webhooks.list();
    expect(delivery?.attempts[0]?.outcome).toBe('timeout');
    expect(delivery?.status).toBe('retrying');
    await sandbox.tick(5_000);
    expect(delivery?.status).toBe('delivered');
  });

  it('run on a compressed schedule', async () => {
    const { sandbox, market, client } = setup({ webhooks: { timeScale: 0.001 } });
    expect(sandbox.webhooks.schedule).toEqual([0, 5, 30, 120, 600, 3600, 21600]);
    market.answerNext(status(500), status(500));
    sandbox.orders.approve((await newOrder(sandbox, client)).id);
    await sandbox.tick(35);
    expect(sandbox.webhooks.list()[0]?.status).toBe('delivered');
  });

  it('accept a custom schedule', async () => {
    const { sandbox, market, client } = setup({ webhooks: { retrySchedule: [0, 10] } });
    market.answerNext(status(500), status(500));
    sandbox.orders.approve((await newOrder(sandbox, client)).id);
    await sandbox.tick(10);
    expect(sandbox.webhooks.list()[0]?.status).toBe('failed');
    expect(market.received).toHaveLength(2);
  });

  it('stop when the sandbox closes', async () => {
    const { sandbox, market, client, clock } = setup();
    market.answerNext(status(500));
    sandbox.orders.approve((await newOrder(sandbox, client)).id);
    await sandbox.webhooks.idle();
    sandbox.close();
    expect(clock.pendingTimers()).toBe(0);
  });
});

describe('replay', () => {
  it('sends a new delivery with the same event ID and a fresh signature', async () => {
    const { sandbox, market, client } = setup();
    sandbox.orders.approve((await newOrder(sandbox, client)).id);
    await sandbox.webhooks.idle();
    await sandbox.tick(3_600_000);
    const original = sandbox.webhooks.list()[0]!;
    const copy = sandbox.webhooks.replay(original.id)!;
    await sandbox.webhooks.idle();
    expect(copy).toMatchObject({ replayOf: original.id, eventId: original.eventId, status: 'delivered' });
    const [first, second] = market.received;
    expect(second?.body).toBe(first?.body);
    expect(second?.headers['x-event-timestamp']).not.toBe(first?.headers['x-event-timestamp']);
    await verify(sandbox, second!);
  });

  it('verbatim re-sends the old signed request, which a receiver must refuse as stale', async () => {
    const { sandbox, market, client } = setup();
    sandbox.orders.approve((await newOrder(sandbox, client)).id);
    await sandbox.webhooks.idle();
    await sandbox.tick(3_600_000);
    const copy = sandbox.webhooks.replay(sandbox.webhooks.list()[0]!.id, { verbatim: true })!;
    await sandbox.webhooks.idle();
    expect(market.received[1]?.headers).toEqual(market.received[0]?.headers);
    await expect(verify(sandbox, market.received[1]!)).rejects.toSatisfy((e) =>
      isKitError(e, 'timestamp_out_of_window'),
    );
    expect(copy.verbatim).toBe(true);
  });

  it('verbatim is refused for a delivery never sent, and an unknown delivery is undefined', () => {
    const { sandbox } = setup();
    sandbox.faults.inject({ target: 'webhook', action: 'drop' });
    const [dropped] = sandbox.webhooks.emit('org-market', { type: 'CUSTOM' });
    expect(() => sandbox.webhooks.replay(dropped!.id, { verbatim: true })).toThrow(/never sent/);
    expect(sandbox.webhooks.replay('dlv_nope')).toBeUndefined();
  });
});

describe('webhook faults', () => {
  it('drop: the delivery is recorded but never sent', async () => {
    const { sandbox, market, client } = setup();
    sandbox.faults.inject({ target: 'webhook', action: 'drop' });
    await readyOrder(sandbox, client, 'status');
    await sandbox.webhooks.idle();
    expect(sandbox.webhooks.list().map((d) => d.status)).toEqual(['dropped', 'delivered']);
    expect(market.payloads().map((p) => p.order_status)).toEqual(['DISBURSING']);
    expect(sandbox.faults.list()).toEqual([]);
  });

  it('duplicate: the same event (ID and body) arrives twice', async () => {
    const { sandbox, market, client } = setup();
    sandbox.faults.inject({ target: 'webhook', action: 'duplicate' });
    sandbox.orders.approve((await newOrder(sandbox, client)).id);
    await sandbox.webhooks.idle();
    expect(market.received).toHaveLength(2);
    expect(market.received[1]?.headers['x-event-id']).toBe(market.received[0]?.headers['x-event-id']);
    expect(market.received[1]?.body).toBe(market.received[0]?.body);
    expect(sandbox.webhooks.list()[1]?.duplicateOf).toBe(sandbox.webhooks.list()[0]?.id);
  });

  it('reorder: the next N deliveries are held and sent newest first', async () => {
    const { sandbox, market, client } = setup();
    sandbox.faults.inject({ target: 'webhook', action: 'reorder', times: 3 });
    const order = await readyOrder(sandbox, client, 'status');
    await sandbox.webhooks.idle();
    expect(market.received).toHaveLength(0);
    expect(sandbox.webhooks.list().map((d) => d.status)).toEqual(['held', 'held']);
    sandbox.orders.markPaid(order.id);
    await sandbox.webhooks.idle();
    expect(market.payloads().map((p) => p.order_status)).toEqual(['PAID', 'DISBURSING', 'APPROVED']);
  });

  it('reorder: an incomplete group is released by flushHeld', async () => {
    const { sandbox, market, client } = setup();
    sandbox.faults.inject({ target: 'webhook', action: 'reorder', times: 5 });
    await readyOrder(sandbox, client, 'status');
    sandbox.webhooks.flushHeld();
    await sandbox.webhooks.idle();
    expect(market.payloads().map((p) => p.order_status)).toEqual(['DISBURSING', 'APPROVED']);
  });

  it('delay: the delivery goes out after the given time', async () => {
    const { sandbox, market, client } = setup();
    sandbox.faults.inject({ target: 'webhook', action: 'delay', delayMs: 30_000 });
    sandbox.orders.approve((await newOrder(sandbox, client)).id);
    await sandbox.tick(29_999);
    expect(market.received).toHaveLength(0);
    expect(sandbox.webhooks.list()[0]?.status).toBe('pending');
    await sandbox.tick(1);
    expect(market.received).toHaveLength(1);
  });

  it('only touch deliveries of the event type they name', async () => {
    const { sandbox, market, client } = setup();
    sandbox.faults.inject({
      target: 'webhook',
      action: 'drop',
      eventType: 'BNPL_DISBURSEMENT_REQUIREMENT_STATUS_UPDATED',
    });
    await readyOrder(sandbox, client, 'both');
    await sandbox.webhooks.idle();
    expect(market.payloads().map((p) => p.type)).toEqual([
      'BNPL_ORDER_STATUS_UPDATED',
      'BNPL_ORDER_STATUS_UPDATED',
    ]);
  });
});

describe('other events', () => {
  it('offer transaction and dispute updates carry the four documented fields', async () => {
    const { sandbox, market, client } = setup();
    const { credifyId } = await client.checkAvailability({ localId: 'u-1', productTypes: [] });
    const order = await newOrder(sandbox, client);
    sandbox.orders.approve(order.id, { credifyId: credifyId!, offerCode: 'sandbox-pay-in-3' });
    const [transaction] = sandbox.transactions.list();
    sandbox.transactions.completeDispute(transaction!.id, 'RESOLVED');
    await sandbox.webhooks.idle();
    const events = market.received.map((r) => parseWebhookEvent(r.body));
    expect(events.slice(1)).toEqual([
      {
        type: 'OFFER_TRANSACTION_STATUS_UPDATED',
        transactionId: transaction!.id,
        credifyId,
        transactionStatus: 'COMPLETED',
        offerCode: 'sandbox-pay-in-3',
      },
      {
        type: 'OFFER_TRANSACTION_DISPUTE_STATUS_UPDATED',
        transactionId: transaction!.id,
        credifyId,
        transactionStatus: 'RESOLVED',
        offerCode: 'sandbox-pay-in-3',
      },
    ]);
  });

  it('any payload can be emitted, e.g. an unknown type', async () => {
    const { sandbox, market } = setup();
    sandbox.webhooks.emit('org-market', { type: 'SOMETHING_NEW', x: 1 });
    await sandbox.webhooks.idle();
    expect(parseWebhookEvent(market.received[0]!.body)).toMatchObject({
      type: 'SOMETHING_NEW',
      unknown: true,
    });
  });
});

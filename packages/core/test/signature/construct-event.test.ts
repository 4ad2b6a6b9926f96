import { describe, expect, expectTypeOf, it } from 'vitest';
import {
  constructWebhookEvent,
  EVENT_TYPES,
  isUnknownEvent,
  KitError,
  type KnownWebhookEvent,
  ORDER_STATUSES,
  type UnknownEvent,
  type WebhookEvent,
  WebhookVerificationError,
} from '../../src/index.js';
import { encodeWebhookEvent } from '../../src/models/events.js';
import { kitErrorOf } from '../../src/testing.js';
import { NOW, signedWebhook, vectors } from './helpers.js';

const options = { keys: vectors.public_key, now: NOW };

/** One model of every known event type: a type added to EVENT_TYPES without a sample fails to compile. */
const SAMPLES: { [T in KnownWebhookEvent['type']]: Extract<KnownWebhookEvent, { type: T }> } = {
  [EVENT_TYPES.orderStatusUpdated]: {
    type: EVENT_TYPES.orderStatusUpdated,
    orderId: 'o1',
    orderStatus: 'APPROVED',
  },
  [EVENT_TYPES.offerTransactionStatusUpdated]: {
    type: EVENT_TYPES.offerTransactionStatusUpdated,
    transactionId: 't1',
    credifyId: 'c1',
    transactionStatus: 'COMPLETED',
    offerCode: 'BNPL_1',
  },
  [EVENT_TYPES.disputeStatusUpdated]: {
    type: EVENT_TYPES.disputeStatusUpdated,
    transactionId: 't2',
    credifyId: 'c2',
    transactionStatus: 'OPEN',
    offerCode: 'BNPL_2',
  },
  [EVENT_TYPES.disbursementRequirementUpdated]: {
    type: EVENT_TYPES.disbursementRequirementUpdated,
    orderId: 'o2',
    isFulfilled: true,
  },
};

async function construct(wire: unknown, eventId = 'evt_1') {
  const signed = await signedWebhook({ body: JSON.stringify(wire), eventId });
  return constructWebhookEvent(signed.request, options);
}

describe('constructWebhookEvent: verified and typed in one call', () => {
  it('has a sample for every known event type', () => {
    expect(Object.keys(SAMPLES).sort()).toEqual(Object.values(EVENT_TYPES).sort());
  });

  it.each(Object.values(SAMPLES))('returns $type as its typed model', async (sample) => {
    const result = await construct(encodeWebhookEvent(sample));
    expect(result.event).toEqual(sample);
    expect(result.eventId).toBe('evt_1');
    expect(isUnknownEvent(result.event)).toBe(false);
  });

  it.each(ORDER_STATUSES)('reads order status %s', async (status) => {
    const { event } = await construct({
      type: EVENT_TYPES.orderStatusUpdated,
      order_id: 'o',
      order_status: status,
    });
    expect(event).toEqual({ type: EVENT_TYPES.orderStatusUpdated, orderId: 'o', orderStatus: status });
  });

  it('returns a type it does not know as an UnknownEvent to acknowledge (§6), with the payload', async () => {
    const payload = { type: 'SOMETHING_NEW', order_id: 'o1', extra: [1, 2] };
    const { event } = await construct(payload);
    expect(isUnknownEvent(event)).toBe(true);
    expect(event).toEqual({ type: 'SOMETHING_NEW', unknown: true, reason: 'unknown_type', payload });
  });

  it('returns an order status outside the six as an UnknownEvent naming the order', async () => {
    const payload = { type: EVENT_TYPES.orderStatusUpdated, order_id: 'o9', order_status: 'ON_HOLD' };
    const { event } = await construct(payload);
    expect(event).toEqual({
      type: EVENT_TYPES.orderStatusUpdated,
      unknown: true,
      reason: 'unknown_order_status',
      orderId: 'o9',
      orderStatus: 'ON_HOLD',
      payload,
    });
  });

  it('narrows by isUnknownEvent and then by type', async () => {
    const { event } = await construct(encodeWebhookEvent(SAMPLES[EVENT_TYPES.orderStatusUpdated]));
    expectTypeOf(event).toEqualTypeOf<WebhookEvent>();
    if (isUnknownEvent(event)) {
      expectTypeOf(event).toEqualTypeOf<UnknownEvent>();
      throw new Error('a known event came back unknown');
    }
    if (event.type === EVENT_TYPES.orderStatusUpdated)
      expectTypeOf(event.orderStatus).toEqualTypeOf<(typeof ORDER_STATUSES)[number]>();
    expect(event.type).toBe(EVENT_TYPES.orderStatusUpdated);
  });

  it('does not parse a body whose signature does not verify', async () => {
    const signed = await signedWebhook({ body: '{"type":"SOMETHING_NEW"}' });
    const tampered = { ...signed.request, body: 'not json at all' };
    const error = await kitErrorOf(constructWebhookEvent(tampered, options));
    expect(error).toBeInstanceOf(WebhookVerificationError);
    expect(error.code).toBe('signature_invalid');
  });

  it.each([
    ['not JSON', 'not json', 'invalid_json'],
    ['not an object', '[1]', 'validation_failed'],
    ['without a type', '{"order_id":"o1"}', 'validation_failed'],
    [
      'a known type with a missing field',
      `{"type":"${EVENT_TYPES.orderStatusUpdated}","order_id":"o1"}`,
      'validation_failed',
    ],
  ])('answers a verified body that is %s with a 400 KitError', async (_what, body, code) => {
    const signed = await signedWebhook({ body });
    const error = await kitErrorOf(constructWebhookEvent(signed.request, options));
    expect(error).toBeInstanceOf(KitError);
    expect(error).not.toBeInstanceOf(WebhookVerificationError);
    expect([error.code, error.status]).toEqual([code, 400]);
  });
});

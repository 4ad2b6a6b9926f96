import { describe, expect, it } from 'vitest';
import { KitError } from '../src/errors.js';
import { encodeWebhookEvent, isUnknownEvent, parseWebhookEvent } from '../src/models/events.js';

const bytes = (value: unknown) => new TextEncoder().encode(JSON.stringify(value));

describe('webhook events', () => {
  it('parses an order status update into the model', () => {
    const event = parseWebhookEvent(
      bytes({ type: 'BNPL_ORDER_STATUS_UPDATED', order_id: 'o1', order_status: 'APPROVED' }),
    );
    expect(event).toEqual({ type: 'BNPL_ORDER_STATUS_UPDATED', orderId: 'o1', orderStatus: 'APPROVED' });
  });

  it.each(['OFFER_TRANSACTION_STATUS_UPDATED', 'OFFER_TRANSACTION_DISPUTE_STATUS_UPDATED'])(
    'parses %s',
    (type) => {
      const wire = {
        type,
        transaction_id: 't1',
        credify_id: 'c1',
        transaction_status: 'COMPLETED',
        offer_code: 'BNPL_1',
      };
      const event = parseWebhookEvent(bytes(wire));
      expect(event).toEqual({
        type,
        transactionId: 't1',
        credifyId: 'c1',
        transactionStatus: 'COMPLETED',
        offerCode: 'BNPL_1',
      });
      expect(encodeWebhookEvent(event as never)).toEqual(wire);
    },
  );

  it.each(['undefined', 'null'])('refuses the text of a missing value as a stored ID (%j): 400', (text) => {
    for (const wire of [
      { type: 'BNPL_ORDER_STATUS_UPDATED', order_id: text, order_status: 'APPROVED' },
      {
        type: 'OFFER_TRANSACTION_STATUS_UPDATED',
        transaction_id: 't1',
        credify_id: text,
        transaction_status: 'COMPLETED',
        offer_code: 'BNPL_1',
      },
    ]) {
      expect(() => parseWebhookEvent(bytes(wire))).toThrow(KitError);
    }
  });

  it('parses the disbursement requirement event', () => {
    const event = parseWebhookEvent(
      bytes({ type: 'BNPL_DISBURSEMENT_REQUIREMENT_STATUS_UPDATED', order_id: 'o1', is_fulfilled: true }),
    );
    expect(event).toEqual({
      type: 'BNPL_DISBURSEMENT_REQUIREMENT_STATUS_UPDATED',
      orderId: 'o1',
      isFulfilled: true,
    });
  });

  it('keeps an unknown type as an unknown event', () => {
    const event = parseWebhookEvent(bytes({ type: 'SOMETHING_NEW', x: 1 }));
    expect(isUnknownEvent(event)).toBe(true);
    expect(event).toMatchObject({ type: 'SOMETHING_NEW', payload: { x: 1 } });
  });

  it.each([
    ['not JSON', '{nope', 'invalid_json'],
    ['an array', '[]', 'validation_failed'],
    ['no type', '{"order_id":"o1"}', 'validation_failed'],
    [
      'an empty status',
      '{"type":"BNPL_ORDER_STATUS_UPDATED","order_id":"o1","order_status":""}',
      'validation_failed',
    ],
    [
      'a fractional order_id',
      '{"type":"BNPL_ORDER_STATUS_UPDATED","order_id":1.5,"order_status":"PAID"}',
      'validation_failed',
    ],
    ['missing order_id', '{"type":"BNPL_ORDER_STATUS_UPDATED","order_status":"PAID"}', 'validation_failed'],
  ])('refuses %s with a 400', (_label, text, code) => {
    try {
      parseWebhookEvent(text);
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(KitError);
      expect((error as KitError).code).toBe(code);
      expect((error as KitError).status).toBe(400);
    }
  });
});

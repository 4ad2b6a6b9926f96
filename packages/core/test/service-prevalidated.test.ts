import { describe, expect, it } from 'vitest';
import { createServiceClient } from '../src/index.js';
import { orderCreateRequestCodec } from '../src/models/order.js';
import { sameJson } from '../src/service/echoed-answer.js';
import { markPrevalidated } from '../src/service/prevalidated.js';
import { SERVICE_ROUTES } from '../src/service/routes.js';
import { envelope, ORDERS, orderInput, orderService, wireServiceOrder } from './service-support.js';

describe('a create request the market route already validated', () => {
  const service = (answer?: () => Response) => orderService(answer ? { [`POST ${ORDERS}`]: answer } : {});
  const clientOf = (s: ReturnType<typeof service>) =>
    createServiceClient({ baseUrl: 'https://service.test', apiKey: 'k', fetch: s.fetch });

  it('is sent without a second check, and exactly as encoded', async () => {
    const s = service();
    const client = clientOf(s);
    // Wrong on purpose: were it checked again it would be refused, so being sent proves the skip.
    const body = markPrevalidated({ ...orderInput, totalAmount: { value: '1', currency: 'VND' as const } });
    await client.createOrder(body);
    expect(s.count(`POST ${ORDERS}`)).toBe(1);
    expect(JSON.parse(s.seen.at(-1)!.body!).total_amount).toEqual({ value: '1', currency: 'VND' });
  });

  it('is sent as the wire JSON handed over with it, not encoded again', async () => {
    const s = service();
    const wire = { ...orderCreateRequestCodec.encode(orderInput), reference_id: 'as-handed-over' };
    await clientOf(s).createOrder(markPrevalidated({ ...orderInput }, wire));
    expect(s.seen.at(-1)!.body).toBe(JSON.stringify(wire));
  });

  it('hands over what the service codec would make of it: the market codec encodes the same JSON', () => {
    // The order route encodes with the market's codec (for its fingerprint) and hands that over.
    const wire = orderCreateRequestCodec.encode(orderInput);
    expect(JSON.stringify(wire)).toBe(JSON.stringify(SERVICE_ROUTES.createOrder.request!.encode(orderInput)));
  });

  it('leaves every other request checked', async () => {
    const s = service();
    const bad = { ...orderInput, totalAmount: { value: '1', currency: 'VND' as const } };
    await expect(clientOf(s).createOrder(bad)).rejects.toMatchObject({ code: 'validation_failed' });
    expect(s.count(`POST ${ORDERS}`)).toBe(0);
  });
});

describe('the answer to a create request checked before it was sent', () => {
  const create = (answer: Record<string, unknown>) => {
    const s = orderService({ [`POST ${ORDERS}`]: () => envelope(answer) });
    const client = createServiceClient({ baseUrl: 'https://service.test', apiKey: 'k', fetch: s.fetch });
    return client.createOrder(markPrevalidated({ ...orderInput }));
  };

  it('decodes the echoed lines to the lines sent', async () => {
    const created = await create(wireServiceOrder());
    expect(created.orderLines).toEqual(orderInput.orderLines);
    expect(created).toMatchObject({
      id: 'ord-1',
      orderStatus: 'PENDING',
      referenceId: orderInput.referenceId,
    });
  });

  it('still checks every other member of an answer that echoes the lines', async () => {
    await expect(create(wireServiceOrder({ order_status: 7 }))).rejects.toMatchObject({
      code: 'upstream_rejected',
    });
    await expect(create(wireServiceOrder({ id: '' }))).rejects.toMatchObject({ code: 'upstream_rejected' });
  });

  it('checks lines that differ from the ones sent in full', async () => {
    const [sent] = wireServiceOrder().order_lines as Record<string, unknown>[];
    const changed = { ...sent, image_url: 'not a url' };
    const error = await create(wireServiceOrder({ order_lines: [changed] })).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'upstream_rejected' });
    expect((error as Error).message).toContain('data.order_lines[0].image_url');
  });

  it('decodes different but valid lines from the answer, not from the request', async () => {
    const [sent] = wireServiceOrder().order_lines as Record<string, unknown>[];
    const created = await create(wireServiceOrder({ order_lines: [{ ...sent, name: 'Renamed' }] }));
    expect(created.orderLines[0]?.name).toBe('Renamed');
  });
});

describe('sameJson', () => {
  it('compares JSON values whatever the key order', () => {
    expect(sameJson({ a: 1, b: [1, { c: 'x' }] }, { b: [1, { c: 'x' }], a: 1 })).toBe(true);
  });

  it.each([
    [{ a: 1 }, { a: 1, b: 2 }],
    [{ a: 1, b: 2 }, { a: 1 }],
    [
      [1, 2],
      [1, 2, 3],
    ],
    [[1], { 0: 1 }],
    [{ a: '1' }, { a: 1 }],
    [{ a: null }, { a: {} }],
  ])('tells %j from %j', (a, b) => {
    expect(sameJson(a, b)).toBe(false);
  });
});

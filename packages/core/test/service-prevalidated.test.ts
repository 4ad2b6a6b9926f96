import { describe, expect, it } from 'vitest';
import { createServiceClient } from '../src/index.js';
import { markPrevalidated } from '../src/service/prevalidated.js';
import { ORDERS, orderInput, orderService } from './service-support.js';

describe('a create request the market route already validated', () => {
  const service = () => orderService();

  it('is sent without a second check, and exactly as encoded', async () => {
    const s = service();
    const client = createServiceClient({ baseUrl: 'https://service.test', apiKey: 'k', fetch: s.fetch });
    // Wrong on purpose: were it checked again it would be refused, so being sent proves the skip.
    const body = markPrevalidated({ ...orderInput, totalAmount: { value: '1', currency: 'VND' as const } });
    await client.createOrder(body);
    expect(s.count(`POST ${ORDERS}`)).toBe(1);
    expect(JSON.parse(s.seen.at(-1)!.body!).total_amount).toEqual({ value: '1', currency: 'VND' });
  });

  it('leaves every other request checked', async () => {
    const s = service();
    const client = createServiceClient({ baseUrl: 'https://service.test', apiKey: 'k', fetch: s.fetch });
    const bad = { ...orderInput, totalAmount: { value: '1', currency: 'VND' as const } };
    await expect(client.createOrder(bad)).rejects.toMatchObject({ code: 'validation_failed' });
    expect(s.count(`POST ${ORDERS}`)).toBe(0);
  });
});

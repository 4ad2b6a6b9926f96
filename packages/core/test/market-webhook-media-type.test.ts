/**
 * The webhook receiver does not check the delivery's Content-Type (docs/protocol.md §4): the
 * signature covers the body bytes, which are read as strict JSON whatever the header says. Certify
 * found a `text/plain` delivery accepted while no document said so; the route table (and so the
 * OpenAPI document) and the protocol now say it, and these tests hold the behaviour to them.
 */
import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { MARKET_ROUTES, type MarketRouteDefinition } from '../src/market/route-table.js';
import { signWebhook } from '../src/testing.js';
import { insertOrder, makeMarket, ORIGIN } from './market-support.js';

async function deliverAs(contentType: string | undefined, body: string | object) {
  const t = await makeMarket();
  await insertOrder(t.store, 'o1', 'PENDING');
  const signed = await signWebhook({
    url: t.market.webhookUrl,
    body: body as object,
    signingKey: t.serviceKeys.privateKeyPem,
  });
  const headers = new Headers(signed.headers);
  if (contentType === undefined) headers.delete('content-type');
  else headers.set('content-type', contentType);
  const response = await t.market.handle(
    new Request(`${ORIGIN}/v1/webhook`, { method: 'POST', headers, body: signed.body as BodyInit }),
  );
  return { response, status: t.store.orders()[0]?.status };
}

const approve = { type: 'BNPL_ORDER_STATUS_UPDATED', order_id: 'o1', order_status: 'APPROVED' };

describe('a signed webhook whatever its Content-Type', () => {
  it.each(['text/plain', 'application/octet-stream', undefined])(
    'is applied when sent as %s',
    async (type) => {
      const { response, status } = await deliverAs(type, approve);
      expect(response.status).toBe(200);
      expect(status).toBe('APPROVED');
    },
  );

  it('is still read as strict JSON: a text/plain body that is not JSON is a 400 invalid_json', async () => {
    const { response, status } = await deliverAs('text/plain', '{"type": ');
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ code: 'invalid_json' });
    expect(status).toBe('PENDING');
  });

  it('the route table declares no 415 for the webhook and says why, as every other body route does declare it', () => {
    const webhook: MarketRouteDefinition = MARKET_ROUTES.receiveWebhook;
    expect(webhook.problems).not.toContain('unsupported_media_type');
    expect(webhook.description).toMatch(/Content-Type is not checked \(no 415\)/);
    const otherBodies = Object.values<MarketRouteDefinition>(MARKET_ROUTES).filter(
      (r) => r.request && r !== webhook,
    );
    expect(otherBodies.length).toBeGreaterThan(0);
    for (const route of otherBodies) expect(route.problems).toContain('unsupported_media_type');
  });

  it('docs/protocol.md §4 says the same', async () => {
    const protocol = await readFile(new URL('../../../docs/protocol.md', import.meta.url), 'utf8');
    const webhooks = protocol.slice(protocol.indexOf('## §4. Webhooks'), protocol.indexOf('## §5.'));
    expect(webhooks.replace(/\s+/g, ' ')).toContain(
      'does not refuse a signed delivery for its `Content-Type` (no 415 on this endpoint)',
    );
  });
});

/**
 * `/bnpl/complete`, where the provider sends a person back outside the SDK: a page for a browser
 * (escaped, script-free CSP, self-refreshing while the status can move), JSON for curl and scripts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { completePage, wantsHtml } from '../src/complete-page.js';
import { marketClient } from './helpers/market-client.js';
import { removeDir, startTestServer, type TestServer } from './helpers/servers.js';

const BROWSER_ACCEPT = 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8';

describe('wantsHtml', () => {
  it('is true for a browser’s Accept, false for curl’s and for JSON clients', () => {
    expect(wantsHtml(BROWSER_ACCEPT)).toBe(true);
    expect(wantsHtml('*/*')).toBe(false);
    expect(wantsHtml('')).toBe(false);
    expect(wantsHtml('application/json')).toBe(false);
  });
});

describe('completePage', () => {
  it('escapes the order ID and refreshes only while the status can move', async () => {
    const hostile = '<img src=x onerror=alert(1)>';
    const pending = completePage({ orderId: hostile, status: 'PENDING', shopUrl: '/' });
    const html = await pending.text();
    expect(html).toContain('&lt;img src=x onerror=alert(1)&gt;');
    expect(html).not.toContain(hostile);
    expect(html).toContain('http-equiv="refresh"');
    expect(pending.headers.get('content-security-policy')).toMatch(/^default-src 'none'; style-src 'nonce-/);
    expect(await completePage({ orderId: 'o', status: 'PAID', shopUrl: undefined }).text()).not.toContain(
      'refresh',
    );
    expect(completePage({ orderId: 'o', status: undefined, shopUrl: '/' }).status).toBe(404);
  });
});

describe('GET /bnpl/complete on a reference server', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ mode: 'basic' });
  });
  afterAll(async () => {
    await server.close();
    await removeDir(server.dataDir);
  });

  /** The callback URL the market hands out for `orderId` (through the BNPL redirect). */
  async function handedOut(orderId: string): Promise<string> {
    const redirect = await fetch(`${server.url}/v1/bnpl/orders/${encodeURIComponent(orderId)}/redirect`, {
      redirect: 'manual',
    });
    expect(redirect.status).toBe(302);
    return redirect.headers.get('location')!;
  }
  const withoutNonce = (html: string) => html.replace(/nonce="[^"]*"/g, 'nonce=""');

  it('answers the signed link with a page for a browser and JSON for curl', async () => {
    const orderId = await marketClient(server.url, server.marketApiToken.reveal()).createOrder('complete-1');
    const link = new URL(await handedOut(orderId));
    expect(link.pathname).toBe('/bnpl/complete');
    expect(link.searchParams.get('order_id')).toBe(orderId);
    const url = `${server.url}${link.pathname}${link.search}`;
    const page = await fetch(url, { headers: { accept: BROWSER_ACCEPT } });
    expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
    const html = await page.text();
    expect(html).toContain('Waiting for the decision');
    expect(html).toContain('<a href="/">Back to the shop</a>');
    const json = await fetch(url, { headers: { accept: '*/*' } });
    expect(await json.json()).toMatchObject({ order_id: orderId, status: 'PENDING' });
  });

  it('reveals nothing about an order whose link the visitor was not given (issue 20 §3)', async () => {
    const client = marketClient(server.url, server.marketApiToken.reveal());
    const orderId = await client.createOrder('complete-2');
    const otherId = await client.createOrder('complete-3');
    const otherSig = new URL(await handedOut(otherId)).searchParams.get('sig')!;
    const base = `${server.url}/bnpl/complete?order_id=`;
    const unknown = `${base}ord_does_not_exist`;
    const attempts = [
      `${base}${encodeURIComponent(orderId)}`,
      `${base}${encodeURIComponent(orderId)}&sig=`,
      `${base}${encodeURIComponent(orderId)}&sig=${'A'.repeat(43)}`,
      `${base}${encodeURIComponent(orderId)}&sig=${otherSig}`,
      `${base}${encodeURIComponent(orderId)}&sig=${otherSig.slice(0, 20)}`,
    ];
    const unknownPage = withoutNonce(
      await (await fetch(unknown, { headers: { accept: BROWSER_ACCEPT } })).text(),
    );
    const unknownJson = await (await fetch(unknown)).json();
    for (const attempt of attempts) {
      const page = await fetch(attempt, { headers: { accept: BROWSER_ACCEPT } });
      expect(page.status).toBe(404);
      const html = withoutNonce(await page.text());
      expect(html).not.toContain('PENDING');
      expect(html.replace(escapeId(orderId), 'ID')).toBe(unknownPage.replace('ord_does_not_exist', 'ID'));
      const json = await fetch(attempt);
      expect(json.status).toBe(404);
      const body = await json.json();
      expect(body.status).toBe(404);
      expect({ ...body, order_id: 'ID' }).toEqual({ ...unknownJson, order_id: 'ID' });
    }
  });

  it("answers the market's own systems (Bearer MARKET_API_TOKEN), as the walkthrough polls it", async () => {
    const orderId = await marketClient(server.url, server.marketApiToken.reveal()).createOrder('complete-4');
    const url = `${server.url}/bnpl/complete?order_id=${encodeURIComponent(orderId)}`;
    const json = await fetch(url, { headers: { authorization: `Bearer ${server.marketApiToken.reveal()}` } });
    expect(await json.json()).toMatchObject({ order_id: orderId, status: 'PENDING' });
    const wrong = await fetch(url, { headers: { authorization: 'Bearer not-the-token' } });
    expect(wrong.status).toBe(404);
  });
});

function escapeId(id: string): string {
  return id.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

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

  it('answers a browser with a page and curl with JSON', async () => {
    const orderId = await marketClient(server.url, server.marketApiToken.reveal()).createOrder('complete-1');
    const url = `${server.url}/bnpl/complete?order_id=${encodeURIComponent(orderId)}`;
    const page = await fetch(url, { headers: { accept: BROWSER_ACCEPT } });
    expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
    const html = await page.text();
    expect(html).toContain('Waiting for the decision');
    expect(html).toContain('<a href="/">Back to the shop</a>');
    const json = await fetch(url, { headers: { accept: '*/*' } });
    expect(await json.json()).toMatchObject({ order_id: orderId, status: 'PENDING' });
  });
});

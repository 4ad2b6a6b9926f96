/**
 * The standalone sandbox's console behind an admin token, in Chromium: the page loads without it,
 * asks for it, and with it lists the orders; a wrong token keeps the data out.
 */
import { orderRequest } from '@bnpl-kit/reference-server/testing';
import { startSandboxServer } from '@bnpl-kit/sandbox';
import { describe, expect, it } from 'vitest';
import { launchChromium, newContext } from './support/browser.js';
import { eventually } from './support/eventually.js';

const TOKEN = 'admin-token-for-the-console';

describe('sandbox console with an admin token, in Chromium', () => {
  it('asks for the token, then shows the data the admin API guards', async () => {
    const browser = await launchChromium();
    const server = await startSandboxServer({
      port: 0,
      adminToken: TOKEN,
      organizations: [{ id: 'org-console', name: 'Console test market', apiKeys: ['sk_console_test_1'] }],
    });
    try {
      const headers = { 'content-type': 'application/json', 'x-api-key': 'sk_console_test_1' };
      const token = await fetch(`${server.url}/v1/token`, { method: 'POST', headers });
      const accessToken = ((await token.json()) as { data: { access_token: string } }).data.access_token;
      const created = await fetch(`${server.url}/v1/integration/bnpl-consumers/orders`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${accessToken}` },
        body: JSON.stringify(orderRequest('console-1', '100000')),
      });
      const orderId = ((await created.json()) as { data: { id: string } }).data.id;

      const page = await (await newContext(browser)).newPage();
      const errors: string[] = [];
      page.on('pageerror', (error) => errors.push(error.message));
      await page.goto(`${server.url}/sandbox/console`);
      await page.locator('#token-section:not([hidden])').waitFor();
      await expect(page.locator('#orders tr').count()).resolves.toBe(0);

      await page.fill('#token-input', 'wrong-token');
      await page.click('#token-form button');
      await page.locator('#refreshed', { hasText: 'not updated' }).waitFor();
      await expect(page.locator('#orders tr').count()).resolves.toBe(0);

      await page.fill('#token-input', TOKEN);
      await page.click('#token-form button');
      await page.locator(`#orders tr[data-order-id="${orderId}"]`).waitFor();
      await eventually(() => page.locator('#token-section').isHidden()).toBe(true);
      await page.locator(`#orders tr[data-order-id="${orderId}"] [data-action="approve"]`).click();
      await page.locator(`#orders tr[data-order-id="${orderId}"][data-status="APPROVED"]`).waitFor();
      expect(errors).toEqual([]);
    } finally {
      await server.close();
      await browser.close();
    }
  });
});

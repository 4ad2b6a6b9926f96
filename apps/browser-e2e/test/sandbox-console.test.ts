/**
 * The sandbox console in Chromium, on the basic reference server's embedded sandbox
 * (`/sandbox-service/sandbox/console`): it lists what the shop just did, its provider buttons move
 * the order (and the shop page follows), a delivery shows its attempts and can be replayed, faults
 * are injected and cleared, and hostile data stays text under the page's strict CSP.
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { newContext, screenshot } from './support/browser.js';
import { eventually } from './support/eventually.js';
import { payLaterAndDecide, waitForStatus } from './support/flows.js';
import { useBrowserDemo } from './support/suite.js';

const demo = useBrowserDemo('basic');
const HOSTILE = '<img src=x onerror="window.__pwned=1"><script>window.__pwned=2</script>';

async function admin(serviceUrl: string, method: string, path: string, body: unknown) {
  const response = await fetch(`${serviceUrl}/sandbox${path}`, {
    method,
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${await response.text()}`);
}

const orderRow = (page: Page, orderId: string) => page.locator(`#orders tr[data-order-id="${orderId}"]`);

describe('sandbox console, in Chromium', () => {
  demo.shopTest(
    'shows the order, moves it with the provider buttons, replays a delivery and injects a fault',
    async ({ page: shop, target, context, problems }) => {
      const orderId = await payLaterAndDecide(shop, ['tea-set'], 'approve');

      const page = await context.newPage();
      page.on('pageerror', (error) => problems.push(`console page error: ${error.message}`));
      page.on('console', (m) => void (m.type() === 'error' && problems.push(`console: ${m.text()}`)));
      await page.goto(`${target.serviceUrl}/sandbox/console`);
      await page.waitForSelector('body[data-loaded="true"]');
      const row = orderRow(page, orderId);
      await row.and(page.locator('[data-status="APPROVED"]')).waitFor();
      await eventually(() => row.locator('.history li').allTextContents()).toEqual([
        expect.stringMatching(/^PENDING /),
        expect.stringMatching(/^APPROVED /),
      ]);
      await eventually(() => row.locator('[data-action="approve"]').isDisabled()).toBe(true);
      await screenshot(page, 'console-1-approved');

      await row.locator('[data-action="ready"]').click();
      await orderRow(page, orderId).and(page.locator('[data-status="DISBURSING"]')).waitFor();
      await orderRow(page, orderId).locator('[data-action="paid"]').click();
      await orderRow(page, orderId).and(page.locator('[data-status="PAID"]')).waitFor();
      // The shop, open in the other tab, follows by itself.
      await waitForStatus(shop, orderId, 'PAID');
      await eventually(() => page.locator('#disbursements tr').count()).toBe(1);
      // Paid: readiness is history now, not something still to do.
      await expect(orderRow(page, orderId).textContent()).resolves.not.toContain('ready to disburse');
      // The disbursement's Source reads as one word on one line.
      const sourceLines = () =>
        page
          .locator('#disbursements tr td.nowrap')
          .first()
          .evaluate((cell) => {
            const range = document.createRange();
            range.selectNodeContents(cell);
            return new Set([...range.getClientRects()].map((r) => Math.round(r.top))).size;
          });
      await eventually(sourceLines).toBe(1);
      // Each navigation link brings its section's heading into view below the sticky header.
      for (const link of await page.locator('header nav a[href^="#"]').all()) {
        const href = (await link.getAttribute('href'))!;
        await link.click();
        // Scrolling to the anchor happens after the click resolves: read until it has.
        const belowHeader = () =>
          page.evaluate((id) => {
            const heading = document.querySelector(`${id} h2`)!.getBoundingClientRect().top;
            return heading - document.querySelector('header')!.getBoundingClientRect().bottom;
          }, href);
        await eventually(belowHeader, `${href} heading under the header`).toBeGreaterThanOrEqual(0);
      }
      // Every page of the origin asks for /favicon.ico: it is there.
      const icon = await fetch(`${target.url}/favicon.ico`);
      expect(icon.status).toBe(200);
      expect(icon.headers.get('content-type')).toMatch(/^image\//);

      // Deliveries: the newest first, each with its attempts; Replay adds a copy.
      const delivered = page.locator('#deliveries details.delivery[data-status="delivered"]').first();
      await delivered.waitFor();
      const deliveryId = await delivered.getAttribute('data-delivery-id');
      const first = page.locator(`#deliveries details.delivery[data-delivery-id="${deliveryId}"]`);
      await first.locator('summary').click();
      await eventually(() => first.locator('.attempt .response-body').first().textContent()).toContain(
        '"received": true',
      );
      await eventually(() => first.locator('.attempt .request-headers').first().textContent()).toMatch(
        /x-event-id/i,
      );
      await screenshot(page, 'console-2-delivery');
      await first.locator('[data-action="replay"]').click();
      // The copy is listed first (newest first); other deliveries may arrive meanwhile.
      await eventually(() => page.locator('#deliveries summary').first().textContent()).toContain(
        `replay of ${deliveryId}`,
      );

      // Faults: inject a webhook drop, then clear it.
      await page.selectOption('#fault-target', 'webhook');
      await page.selectOption('#fault-webhook-action', 'drop');
      await page.click('#fault-form button[type="submit"]');
      await page.locator('#faults .fault-entry').waitFor();
      await eventually(() => page.locator('#faults .fault-entry').textContent()).toContain('"drop"');
      await page.click('#faults-clear');
      await page.locator('#faults .fault-entry').waitFor({ state: 'detached' });
    },
  );

  it('renders hostile organisation and webhook data as text', async () => {
    const { browser, target } = demo.get();
    await admin(target.serviceUrl, 'PUT', '/organizations/hostile-org', {
      name: HOSTILE,
      webhook_urls: ['http://127.0.0.1:9/"><img src=x onerror=window.__pwned=3>'],
      approved_offers: [{ code: HOSTILE, name: HOSTILE }],
    });
    await admin(target.serviceUrl, 'POST', '/webhooks/events', {
      organization_id: 'hostile-org',
      payload: { type: HOSTILE, order_id: `</pre>${HOSTILE}` },
    });
    const context = await newContext(browser);
    const page = await context.newPage();
    const problems: string[] = [];
    page.on('pageerror', (error) => problems.push(error.message));
    await page.goto(`${target.serviceUrl}/sandbox/console`);
    await page.waitForSelector('body[data-loaded="true"]');
    const org = page.locator('#organizations tr[data-organization-id="hostile-org"]');
    await eventually(() => org.locator('b').first().textContent()).toBe(HOSTILE);
    await eventually(() => page.locator('#deliveries summary b').first().textContent()).toBe(HOSTILE);
    await expect(page.locator('img').count()).resolves.toBe(0);
    await expect(page.locator('main script').count()).resolves.toBe(0);
    await expect(page.evaluate(() => (window as { __pwned?: unknown }).__pwned)).resolves.toBeUndefined();
    await screenshot(page, 'console-3-hostile');
    expect(problems).toEqual([]);
    await admin(target.serviceUrl, 'DELETE', '/organizations/hostile-org', {}).catch(() => {});
    await context.close();
  });
});

/**
 * The sandbox console reads at a phone's width (390 px) and a laptop's (1280 px): the page never
 * scrolls sideways, every navigation link is on screen, and no status badge or link is broken
 * inside a word ("APPROVE / D"). On the data-sharing server, whose console shows the most (claims,
 * offers, disbursements), after an approved and paid order and a rejected one. The same run takes
 * the README's screenshot (the shop with the BNPL dialog open on An's offers) into test-output/, and
 * over docs/demo-shop.png only when asked (`pnpm docs:screenshot`): rendering is not byte-for-byte
 * repeatable, so writing it on every run left the checkout modified after each `pnpm test`.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Page } from 'playwright-core';
import { describe, expect } from 'vitest';
import { dialogFrame } from './support/browser.js';
import { eventually } from './support/eventually.js';
import {
  decideInDialog,
  finishDialog,
  payLaterAndDecide,
  provider,
  startPayLater,
  waitForStatus,
} from './support/flows.js';
import { useBrowserDemo } from './support/suite.js';

const demo = useBrowserDemo('data-sharing');
const TEST_OUTPUT = fileURLToPath(new URL('../../../test-output/demo-shop/', import.meta.url));
const README_SCREENSHOT = fileURLToPath(new URL('../../../docs/demo-shop.png', import.meta.url));
/** Set by `pnpm docs:screenshot`: the run also replaces the committed README screenshot. */
const UPDATE_README_SCREENSHOT = process.env.UPDATE_README_SCREENSHOT === '1';
const WIDTHS = [390, 1280] as const;

/** What breaks the layout at the page's current width, as text a failure can show. */
function layoutProblems(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const problems: string[] = [];
    const root = document.documentElement;
    if (root.scrollWidth > root.clientWidth) {
      problems.push(`the page is ${root.scrollWidth} px wide in a ${root.clientWidth} px window`);
    }
    for (const link of document.querySelectorAll<HTMLElement>('header nav a')) {
      const box = link.getBoundingClientRect();
      if (box.left < 0 || box.right > root.clientWidth)
        problems.push(`nav link "${link.textContent}" is cut off`);
    }
    // A word broken across lines renders as more than one line box, or overflows its own box.
    const lines = (el: Element) => {
      const range = document.createRange();
      range.selectNodeContents(el);
      return new Set([...range.getClientRects()].map((r) => Math.round(r.top))).size;
    };
    for (const el of document.querySelectorAll<HTMLElement>('.badge, header nav a')) {
      if (el.offsetParent === null) continue;
      if (lines(el) > 1 || el.scrollWidth > el.clientWidth + 1) {
        problems.push(`"${el.textContent}" is broken over ${lines(el)} lines`);
      }
    }
    return problems;
  });
}

describe('sandbox console layout, in Chromium', () => {
  demo.shopTest(
    'takes the README screenshot: the shop with the BNPL dialog on An’s offers',
    async ({ page }) => {
      // Chromium warns about an iframe sandbox the framed page could lift (web: frame-sandbox.ts).
      const sandboxWarnings: string[] = [];
      page.on('console', (m) => void (/sandbox/i.test(m.text()) && sandboxWarnings.push(m.text())));
      const orderId = await startPayLater(page, ['rice-cooker', 'silk-scarf']);
      const frame = dialogFrame(page);
      await frame.locator('#shared').waitFor();
      await eventually(async () =>
        (await frame.locator('#shared-scopes [data-scope]').allTextContents()).join(''),
      ).toContain('Loyalty membership');
      const committed = readFileSync(README_SCREENSHOT);
      await page.screenshot({
        path: UPDATE_README_SCREENSHOT ? README_SCREENSHOT : `${TEST_OUTPUT}readme.png`,
      });
      // A plain test run leaves the checkout as it found it.
      if (!UPDATE_README_SCREENSHOT) expect(readFileSync(README_SCREENSHOT).equals(committed)).toBe(true);
      await decideInDialog(page, 'approve');
      await finishDialog(page);
      await waitForStatus(page, orderId, 'APPROVED');
      expect(sandboxWarnings).toEqual([]);
    },
  );

  demo.shopTest('at 390 px and 1280 px: no sideways scroll, nav on screen, no word broken', async (visit) => {
    const { page: shop, target, context, problems } = visit;
    const approved = await payLaterAndDecide(shop, ['tea-set'], 'approve');
    await waitForStatus(shop, approved, 'APPROVED');
    await provider(target, approved, 'ready');
    await provider(target, approved, 'paid');
    await waitForStatus(shop, approved, 'PAID');
    const rejected = await payLaterAndDecide(shop, ['silk-scarf'], 'reject');
    await waitForStatus(shop, rejected, 'CANCELED');

    const page = await context.newPage();
    page.on('pageerror', (error) => problems.push(`console page error: ${error.message}`));
    page.on('console', (m) => void (m.type() === 'error' && problems.push(`console: ${m.text()}`)));
    for (const width of WIDTHS) {
      await page.setViewportSize({ width, height: 860 });
      await page.goto(`${target.serviceUrl}/sandbox/console`);
      await page.waitForSelector('body[data-loaded="true"]');
      await page.locator(`#orders tr[data-order-id="${rejected}"][data-status="CANCELED"]`).waitFor();
      // A webhook row names its order before it is expanded.
      await eventually(() => page.locator('#deliveries summary').allTextContents()).toContainEqual(
        expect.stringContaining(`order ${rejected}`),
      );
      // A delivery open shows its attempts' badges too.
      await page.locator('#deliveries details.delivery summary').first().click();
      expect(await page.locator('.badge').count()).toBeGreaterThan(4);
      expect(await layoutProblems(page), `at ${width} px`).toEqual([]);
      await page.screenshot({
        path: `${TEST_OUTPUT}console-${width}.png`,
        fullPage: true,
      });
    }
  });
});

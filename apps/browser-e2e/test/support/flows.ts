/** The steps a shopper takes in the browser, and the provider's moves through the sandbox admin API. */
import type { Page } from 'playwright-core';
import { dialogFrame } from './browser.js';

/** A running demo: the shop at `url`, the sandbox's admin API under `serviceUrl`. */
export interface DemoTarget {
  url: string;
  serviceUrl: string;
  /** The server's warning and error log lines. */
  logs: string[];
  /** Breaks the server as an outage would: its database goes away (the store is closed). */
  stopDatabase(): Promise<void>;
  close(): Promise<void>;
}

/** Adds the products to the cart and presses "Pay later"; resolves with the new order's ID once the BNPL page shows the offer. */
export async function startPayLater(page: Page, productIds: string[]): Promise<string> {
  for (const id of productIds) await page.click(`[data-add="${id}"]`);
  await page.locator('#pay-later:not([disabled])').click();
  await page.locator('dialog[data-bnpl-kit][open]').waitFor();
  // The order the dialog is for, from its page's URL: the order list behind it re-renders on its
  // own polls, so its first row may still be an older order's.
  const src = await page.locator('dialog[data-bnpl-kit] iframe').getAttribute('src');
  const orderId = src === null ? null : new URL(src, page.url()).searchParams.get('order_id');
  if (!orderId) throw new Error(`The dialog's page names no order: ${src}`);
  await page.locator(`#orders li[data-order-id="${orderId}"]`).waitFor();
  await dialogFrame(page).locator('#approve').waitFor();
  return orderId;
}

/** Presses Approve or Reject on the BNPL page, then "Back to …"; resolves when the dialog is gone. */
export async function decideInDialog(page: Page, action: 'approve' | 'reject'): Promise<void> {
  const frame = dialogFrame(page);
  await frame.locator(`#${action}`).click();
  await frame.locator('#done').waitFor();
}

export async function finishDialog(page: Page): Promise<void> {
  await dialogFrame(page).locator('#done').click();
  await page.locator('dialog[data-bnpl-kit]').waitFor({ state: 'detached' });
}

/** Waits until the shop page shows the order in this status (the page polls the shop backend). */
export async function waitForStatus(page: Page, orderId: string, status: string): Promise<void> {
  await page.locator(`[data-order-id="${orderId}"] .status[data-status="${status}"]`).waitFor();
}

/** A provider move through the sandbox admin API; a 409 means the sandbox's scripted provider did it first. */
export async function provider(target: DemoTarget, orderId: string, move: 'ready' | 'paid'): Promise<void> {
  const response = await fetch(`${target.serviceUrl}/sandbox/orders/${encodeURIComponent(orderId)}/${move}`, {
    method: 'POST',
  });
  if (!response.ok && response.status !== 409) {
    throw new Error(`sandbox ${move} answered ${response.status}: ${await response.text()}`);
  }
}

// biome-ignore lint/suspicious/noExplicitAny: tests read arbitrary admin JSON
export async function adminGet(target: DemoTarget, path: string): Promise<any> {
  const response = await fetch(`${target.serviceUrl}${path}`);
  if (!response.ok) throw new Error(`sandbox GET ${path} answered ${response.status}`);
  return response.json();
}

/** The server logged no error while the browser used it. */
export function serverErrors(target: DemoTarget): string[] {
  return target.logs.filter((line) => line.includes('"level":"error"'));
}

/**
 * The empty space, in CSS pixels, between the bottom of the visible step's last element and the
 * bottom of the dialog: what a person sees as blank below an outcome message.
 */
export async function emptyBelowContent(page: Page): Promise<number> {
  const lastBottom = await dialogFrame(page)
    .locator('body')
    .evaluate(() => {
      const step = [...document.querySelectorAll<HTMLElement>('[data-step]')].find((s) => !s.hidden);
      const shown = [...(step?.children ?? [])].filter((el) => (el as HTMLElement).offsetParent !== null);
      return shown.at(-1)?.getBoundingClientRect().bottom ?? 0;
    });
  const [iframeTop, dialogBottom] = await page
    .locator('dialog[data-bnpl-kit]')
    .evaluate((dialog) => [
      dialog.querySelector('iframe')!.getBoundingClientRect().top,
      dialog.getBoundingClientRect().bottom,
    ]);
  return dialogBottom! - (iframeTop! + lastBottom);
}

/** Escape closes the SDK's dialog without a decision; resolves when it is gone. */
export async function dismissDialog(page: Page): Promise<void> {
  await page.keyboard.press('Escape');
  await page.locator('dialog[data-bnpl-kit]').waitFor({ state: 'detached' });
}

/** Pays later for the products, decides on the BNPL page and closes it; resolves with the order's ID. */
export async function payLaterAndDecide(
  page: Page,
  productIds: string[],
  action: 'approve' | 'reject',
): Promise<string> {
  const orderId = await startPayLater(page, productIds);
  await decideInDialog(page, action);
  await finishDialog(page);
  return orderId;
}

/**
 * Debian's Chromium driven by playwright-core (no browser download). CI installs the `chromium`
 * package with apt-get; when it is missing here the tests fail with this explanation, never skip.
 */
import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import {
  type Browser,
  type BrowserContext,
  type BrowserContextOptions,
  chromium,
  type Page,
} from 'playwright-core';

export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** The repository's git-ignored test-output folder. */
export const OUTPUT_DIR = fileURLToPath(new URL('../../../../test-output/demo-shop/', import.meta.url));

export async function launchChromium(): Promise<Browser> {
  if (!existsSync(CHROMIUM_PATH)) {
    throw new Error(
      `The browser tests need Chromium at ${CHROMIUM_PATH} (Debian: apt-get install chromium; or set CHROMIUM_PATH). They do not skip: CI installs it.`,
    );
  }
  await mkdir(OUTPUT_DIR, { recursive: true });
  // `launch` gives every browser a fresh, empty profile directory of its own.
  return chromium.launch({
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--no-first-run',
      '--disable-sync',
      '--disable-quic',
    ],
  });
}

/**
 * How long a wait on the page (Playwright's `waitFor`, `click`, and `eventually`) may take: a hang
 * guard only, never a budget. Playwright's 30 s default is less than a page needs on a loaded
 * machine (a data-sharing test took 46 s of CPU-starved wall time). Below vitest's 240 s test
 * timeout (vitest.shared.ts), so a hung wait fails with its own message.
 */
export const PAGE_WAIT_MS = 120_000;

/** A browser context whose waits end on the event, or on PAGE_WAIT_MS for a hang. */
export async function newContext(browser: Browser, options?: BrowserContextOptions): Promise<BrowserContext> {
  const context = await browser.newContext(options);
  context.setDefaultTimeout(PAGE_WAIT_MS);
  return context;
}

/** A page that fails the test on any uncaught error or CSP violation it reports. */
export async function openShop(browser: Browser, url: string) {
  const context = await newContext(browser, { viewport: { width: 1280, height: 860 } });
  const page = await context.newPage();
  const problems: string[] = [];
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(`console error: ${message.text()}`);
  });
  await page.goto(url);
  await page.waitForSelector('body[data-ready="true"]');
  return { page, context, problems };
}

export function dialogFrame(page: Page) {
  return page.locator('dialog[data-bnpl-kit] iframe').contentFrame();
}

export const screenshot = (page: Page, name: string) => page.screenshot({ path: `${OUTPUT_DIR}${name}.png` });

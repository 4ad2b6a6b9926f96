/**
 * Debian's Chromium driven by playwright-core (no browser download). CI installs the `chromium`
 * package with apt-get; when it is missing here the tests fail with this explanation, never skip.
 */
import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { type Browser, chromium, type Page } from 'playwright-core';

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

/** A page that fails the test on any uncaught error or CSP violation it reports. */
export async function openShop(browser: Browser, url: string) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 860 } });
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

/**
 * One Chromium and one running demo per test file. A missing Chromium fails every test with the
 * explanation (a failure in `beforeAll` alone would only show the tests as skipped).
 */
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { launchChromium, openShop } from './browser.js';
import { type DemoTarget, serverErrors } from './flows.js';
import { startDemo } from './targets.js';

/** A fresh shop page in its own browser context; `problems` collects its page and console errors. */
export interface ShopVisit {
  browser: Browser;
  target: DemoTarget;
  context: BrowserContext;
  page: Page;
  problems: string[];
}

export interface BrowserDemo {
  /** The browser and the running demo; throws why they did not start. */
  get(): { browser: Browser; target: DemoTarget };
  /**
   * A test on a fresh shop page that, after `run`, also requires no page or console error and no
   * server error log (unless `tolerateErrors`: a test that provokes them on purpose).
   */
  shopTest(
    name: string,
    run: (visit: ShopVisit) => Promise<void>,
    options?: { tolerateErrors?: boolean },
  ): void;
}

export function useBrowserDemo(mode: 'basic' | 'data-sharing'): BrowserDemo {
  let browser: Browser | undefined;
  let target: DemoTarget | undefined;
  let failure: unknown;
  beforeAll(async () => {
    const [launched, started] = await Promise.allSettled([launchChromium(), startDemo(mode)]);
    if (launched.status === 'fulfilled') browser = launched.value;
    else failure = launched.reason;
    if (started.status === 'fulfilled') target = started.value;
    else failure ??= started.reason;
  });
  afterAll(async () => {
    await browser?.close();
    await target?.close();
  });
  const get = () => {
    if (failure !== undefined || !browser || !target) throw failure ?? new Error('the demo did not start');
    return { browser, target };
  };
  return {
    get,
    shopTest(name, run, options = {}) {
      it(
        name,
        async () => {
          const demo = get();
          const { page, context, problems } = await openShop(demo.browser, demo.target.url);
          try {
            await run({ ...demo, context, page, problems });
            if (options.tolerateErrors !== true) {
              expect(problems).toEqual([]);
              expect(serverErrors(demo.target)).toEqual([]);
            }
          } finally {
            await context.close();
          }
        },
        // No timeout of its own: vitest's shared one (a hang guard) is what a loaded machine needs.
      );
    },
  };
}

/**
 * One Chromium and one running demo per test file. A missing Chromium fails every test with the
 * explanation (a failure in `beforeAll` alone would only show the tests as skipped).
 */
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll } from 'vitest';
import { launchChromium } from './browser.js';
import type { DemoTarget } from './flows.js';
import { startDemo } from './targets.js';

export function useBrowserDemo(
  mode: 'basic' | 'data-sharing',
): () => { browser: Browser; target: DemoTarget } {
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
  return () => {
    if (failure !== undefined || !browser || !target) throw failure ?? new Error('the demo did not start');
    return { browser, target };
  };
}

/**
 * Pages render asynchronously (a fetch, then a render; a poll that replaces a table), so a
 * one-shot read (`textContent()`, `count()`, `evaluate`) can see the page before the state the test
 * waits for. Every read an assertion depends on goes through `eventually`: it is read again until
 * the assertion holds, as Playwright's own `waitFor` does.
 */
import { expect } from 'vitest';
import { PAGE_WAIT_MS } from './browser.js';

/** `await eventually(() => locator.textContent()).toBe(…)`: retried until it holds. */
export function eventually<T>(read: () => Promise<T> | T, message?: string) {
  return expect.poll(read, { timeout: PAGE_WAIT_MS, interval: 50, message });
}

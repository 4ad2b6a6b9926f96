/**
 * The sandbox console's Certification page in Chromium, on the basic reference server's embedded
 * sandbox: run certification, watch checks arrive, see PASS, open the run's report (the HTML
 * reporter's page). To keep the run short on a shared machine, the server's page certifies only
 * some checks (`consoleCertification.only`); the full suite is what contract tests run.
 */
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium, screenshot } from './support/browser.js';
import { eventually } from './support/eventually.js';
import type { DemoTarget } from './support/flows.js';
import { startDemo } from './support/targets.js';

const ONLY = ['auth.', 'orders.', 'restart.'];
let browser: Browser | undefined;
let target: DemoTarget | undefined;

beforeAll(async () => {
  [browser, target] = await Promise.all([
    launchChromium(),
    startDemo('basic', { consoleCertification: { only: ONLY } }),
  ]);
});
afterAll(async () => {
  await browser?.close();
  await target?.close();
});

describe('console certification, in Chromium', () => {
  it('runs certify on the reference server, shows the checks arriving and PASS, opens the report; with its database stopped, FAIL with the exchanges', async () => {
    const context = await browser!.newContext();
    const problems: string[] = [];
    const outside: string[] = [];
    try {
      const page = await context.newPage();
      page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
      page.on('console', (m) => void (m.type() === 'error' && problems.push(`console: ${m.text()}`)));
      const origin = new URL(target!.serviceUrl).origin;
      context.on('request', (r) => void (new URL(r.url()).origin !== origin && outside.push(r.url())));

      // From the console's nav to its Certification page.
      await page.goto(`${target!.serviceUrl}/sandbox/console`);
      await page.getByRole('link', { name: 'Certification' }).click();
      await page.waitForSelector('body[data-loaded="true"]');
      expect(page.url()).toBe(`${target!.serviceUrl}/sandbox/console/certification`);
      await expect(page.locator('#target').textContent()).resolves.toContain(`${target!.url}/v1`);
      await expect(page.locator('#notice').textContent()).resolves.toContain('--start-command');
      await expect(page.locator('#mode option').allTextContents()).resolves.toEqual(['basic']);

      await page.locator('#run').click();
      // Checks arrive one by one while the run goes.
      // The first run loads the contract suite into the server: slow on a busy machine.
      await page
        .locator('#checks li[data-check-id^="auth."], #verdict[data-verdict="ERROR"]')
        .first()
        .waitFor({ timeout: 180_000 });
      await expect(page.locator('#verdict').getAttribute('data-verdict')).resolves.not.toBe('ERROR');
      await page.locator('#verdict[data-verdict="PASS"]').waitFor({ timeout: 300_000 });
      const ids = await page
        .locator('#checks li')
        .evaluateAll((items) =>
          items.map((li) => `${(li as HTMLElement).dataset.checkId} ${(li as HTMLElement).dataset.status}`),
        );
      expect(ids.length).toBeGreaterThan(5);
      expect(ids.every((line) => ONLY.some((prefix) => line.startsWith(prefix)))).toBe(true);
      // Restart is declared lacking: not exercised, which does not fail the run.
      expect(ids).toContain('restart.state-survives not-exercised');
      expect(ids.filter((line) => line.endsWith(' fail'))).toEqual([]);
      await screenshot(page, 'console-certification-pass');

      // The past run, and its report: the HTML reporter's page, same origin.
      const row = page.locator('#runs tr[data-state="passed"]');
      await eventually(() => row.count()).toBe(1);
      const [report] = await Promise.all([context.waitForEvent('page'), row.locator('a.report').click()]);
      await report.waitForLoadState();
      await expect(report.title()).resolves.toMatch(/^bnpl-kit certification: PASSED \(basic\)/);
      await expect(report.locator('body').textContent()).resolves.toContain('restart.state-survives');
      await screenshot(report, 'console-certification-report');

      // Break the server (its database goes away) and run again: the run fails, and its report
      // shows the failing checks with their exchanges (the market's answers).
      await target!.stopDatabase();
      await page.bringToFront();
      await page.locator('#run').click();
      await page.locator('#verdict[data-verdict="FAIL"]').waitFor({ timeout: 300_000 });
      const failed = page.locator('#runs tr[data-state="failed"]');
      await eventually(() => failed.count()).toBe(1);
      const [broken] = await Promise.all([context.waitForEvent('page'), failed.locator('a.report').click()]);
      await broken.waitForLoadState();
      await expect(broken.title()).resolves.toMatch(/^bnpl-kit certification: FAILED \(basic\)/);
      const brokenText = (await broken.locator('body').textContent()) ?? '';
      // An exchange of a failed check: the request the check sent and the market's 5xx answer.
      expect(brokenText).toMatch(/POST \S+\/v1\/orders/);
      expect(brokenText).toMatch(/\b50[0-9]\b/);
      await screenshot(broken, 'console-certification-failed-report');

      expect(outside).toEqual([]);
      expect(problems.filter((p) => !/status of 50\d/.test(p))).toEqual([]);
    } finally {
      await context.close();
    }
  });
});

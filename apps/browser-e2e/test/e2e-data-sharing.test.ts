/**
 * Browser end to end, data-sharing mode: the BNPL page asks the SDK to push claims first; the shop's
 * pushClaimTokensTask calls the market's `POST /v1/push-claims` with the user's session, the market
 * signs claim tokens and pushes them to the sandbox, and only then can the provider approve.
 */
import { describe, expect, it } from 'vitest';
import { dialogFrame, openShop, screenshot } from './support/browser.js';
import {
  adminGet,
  decideInDialog,
  finishDialog,
  provider,
  serverErrors,
  startPayLater,
  waitForStatus,
} from './support/flows.js';
import { useBrowserDemo } from './support/suite.js';

const E2E_TIMEOUT = 60_000;
const demo = useBrowserDemo('data-sharing');

describe('demo shop, data-sharing mode, in Chromium', () => {
  it(
    'approve: claims are pushed first, then the order shows APPROVED and PAID',
    async () => {
      const { browser, target } = demo();
      const { page, context, problems } = await openShop(browser, target.url);
      const orderId = await startPayLater(page, ['rice-cooker', 'silk-scarf']);
      const frame = dialogFrame(page);
      await frame.locator('#shared').waitFor();
      const scopes = (await frame.locator('#shared-scopes').textContent())!.split(', ');
      expect(scopes.length).toBeGreaterThan(0);
      await screenshot(page, 'data-sharing-1-offer');

      const order = await adminGet(target, `/sandbox/orders/${encodeURIComponent(orderId)}`);
      expect(order.order_status).toBe('PENDING');
      await decideInDialog(page, 'approve');
      await finishDialog(page);
      await waitForStatus(page, orderId, 'APPROVED');

      // The provider holds a claim token per shared scope for the user the order was approved for.
      const approved = await adminGet(target, `/sandbox/orders/${encodeURIComponent(orderId)}`);
      expect(approved.credify_id).toMatch(/./);
      const claims = await adminGet(target, `/sandbox/claims/${encodeURIComponent(approved.credify_id)}`);
      const pushed = claims.claim_tokens as { scope_name: string }[];
      expect(pushed.map((c) => c.scope_name).sort()).toEqual([...scopes].sort());

      await provider(target, orderId, 'ready');
      await provider(target, orderId, 'paid');
      await waitForStatus(page, orderId, 'PAID');
      await screenshot(page, 'data-sharing-2-paid');
      expect(problems).toEqual([]);
      expect(serverErrors(target)).toEqual([]);
      await context.close();
    },
    E2E_TIMEOUT,
  );

  it(
    'reject: the order shows CANCELED',
    async () => {
      const { browser, target } = demo();
      const { page, context, problems } = await openShop(browser, target.url);
      const orderId = await startPayLater(page, ['tea-set']);
      await dialogFrame(page).locator('#shared').waitFor();
      await decideInDialog(page, 'reject');
      await finishDialog(page);
      await waitForStatus(page, orderId, 'CANCELED');
      await screenshot(page, 'data-sharing-3-rejected');
      expect(problems).toEqual([]);
      expect(serverErrors(target)).toEqual([]);
      await context.close();
    },
    E2E_TIMEOUT,
  );
});

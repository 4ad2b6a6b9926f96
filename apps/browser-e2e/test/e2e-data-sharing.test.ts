/**
 * Browser end to end, data-sharing mode: the BNPL page asks the SDK to push claims first; the shop's
 * pushClaimTokensTask calls the market's `POST /v1/push-claims` with the user's session, the market
 * signs claim tokens and pushes them to the sandbox, and only then can the provider approve.
 */
import { describe, expect } from 'vitest';
import { dialogFrame, screenshot } from './support/browser.js';
import { eventually } from './support/eventually.js';
import {
  adminGet,
  decideInDialog,
  dismissDialog,
  emptyBelowContent,
  finishDialog,
  provider,
  startPayLater,
  waitForStatus,
} from './support/flows.js';
import { useBrowserDemo } from './support/suite.js';

const demo = useBrowserDemo('data-sharing');

describe('demo shop, data-sharing mode, in Chromium', () => {
  demo.shopTest(
    'approve: claims are pushed first, then the order shows APPROVED and PAID',
    async ({ page, target }) => {
      const orderId = await startPayLater(page, ['rice-cooker', 'silk-scarf']);
      const frame = dialogFrame(page);
      await frame.locator('#shared').waitFor();
      const shared = frame.locator('#shared-scopes [data-scope]');
      // Scope names as people read them: never the organisation-prefixed wire name.
      await eventually(async () => (await shared.allTextContents()).join('')).toContain('Loyalty membership');
      const labels = await shared.allTextContents();
      expect(labels.join('')).not.toMatch(/org-|:/);
      const scopes = await shared.evaluateAll((nodes) => nodes.map((n) => (n as HTMLElement).dataset.scope!));
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
    },
  );

  demo.shopTest(
    'what data-sharing changes: An is offered the loyalty plan and takes it, Bình is not offered it',
    async ({ page, target }) => {
      const signIn = async (userId: string) => {
        await page.selectOption('#user-select', userId);
        await page.locator(`body[data-signed-in="${userId}"]`).waitFor();
      };
      const offersShown = () =>
        dialogFrame(page)
          .locator('[data-offer]')
          .evaluateAll((nodes) => nodes.map((n) => (n as HTMLElement).dataset.offer));

      await signIn('user-an');
      const anOrder = await startPayLater(page, ['headphones']);
      await eventually(offersShown).toEqual(['sandbox-pay-in-3', 'loyalty-gold-pay-in-6']);
      const frame = dialogFrame(page);
      const gold = frame.locator('[data-offer="loyalty-gold-pay-in-6"]');
      await eventually(() => gold.locator('.unlocked').textContent()).toContain('Loyalty membership');
      await eventually(() => gold.locator('.plan > div').count()).toBe(6);
      await gold.locator('input').check();
      await screenshot(page, 'data-sharing-4-an-loyalty-offer');
      await decideInDialog(page, 'approve');
      // In data-sharing mode the market asks for the payout itself: the page says so.
      await eventually(() => frame.locator('#result-text').textContent()).toMatch(
        /asks for the payout itself\.$/,
      );
      // The dialog fits the outcome: no large empty area below the message and its button.
      await eventually(() => emptyBelowContent(page)).toBeLessThanOrEqual(40);
      await finishDialog(page);
      await waitForStatus(page, anOrder, 'APPROVED');

      // An's pay-later account shows the plan An chose for the order.
      await page.locator('#passport-button:not([disabled])').click();
      const plan = dialogFrame(page).locator(`[data-order-id="${anOrder}"] .plan-chosen`);
      await plan.waitFor();
      await eventually(() => plan.textContent()).toBe(
        'Plan: Pay later in 6 monthly instalments (loyalty points >= 1000) · 6 × 215,000 VND',
      );
      await screenshot(page, 'data-sharing-6-an-account-plan');
      await dismissDialog(page);
      const { transactions } = await adminGet(target, '/sandbox/transactions');
      const anOrderRecord = await adminGet(target, `/sandbox/orders/${encodeURIComponent(anOrder)}`);
      expect(transactions).toEqual(
        expect.arrayContaining([
          expect.objectContaining({ order_id: anOrder, offer_code: 'loyalty-gold-pay-in-6' }),
        ]),
      );
      expect(anOrderRecord.order_status).toBe('APPROVED');

      await signIn('user-binh');
      await startPayLater(page, ['tea-set']);
      await eventually(offersShown).toEqual(['sandbox-pay-in-3']);
      await screenshot(page, 'data-sharing-5-binh-one-offer');
      await dismissDialog(page);
    },
  );

  demo.shopTest('reject: the order shows CANCELED', async ({ page }) => {
    const orderId = await startPayLater(page, ['tea-set']);
    await dialogFrame(page).locator('#shared').waitFor();
    await decideInDialog(page, 'reject');
    await finishDialog(page);
    await waitForStatus(page, orderId, 'CANCELED');
    await screenshot(page, 'data-sharing-3-rejected');
  });
});

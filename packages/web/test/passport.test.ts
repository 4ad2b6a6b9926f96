import { describe, expect, it, vi } from 'vitest';
import { currentPage, expectHostedPage, makeSdk, pressKey, SERVICE_ORIGIN, user } from './helpers.js';

function openPassport() {
  const onDismiss = vi.fn();
  const control = makeSdk().passport.showDetail({
    user,
    marketId: 'org-1',
    productTypes: ['consumerBNPL'],
    onDismiss,
  });
  return { control, onDismiss, page: currentPage() };
}

describe('passport.showDetail', () => {
  it('opens the passport page of the URL contract', () => {
    const { page } = openPassport();
    expectHostedPage(page, 'passport', {
      credify_id: 'cred-1',
      market_id: 'org-1',
      product_types: 'consumerBNPL',
    });
  });

  it('answers page_ready with a passport host_ready', () => {
    const { page } = openPassport();
    page.send(page.message('page_ready'));
    expect(page.posts()).toEqual([[page.message('host_ready', { flow: 'passport' }), SERVICE_ORIGIN]]);
  });

  it('fires onDismiss once when the page asks to close', () => {
    const { page, onDismiss } = openPassport();
    page.send(page.message('close'));
    page.send(page.message('close'));
    pressKey('Escape', {}, document);
    expect(onDismiss).toHaveBeenCalledTimes(1);
    expect(document.querySelector('dialog')).toBeNull();
  });

  it('fires onDismiss once when the user closes it', () => {
    const { page, onDismiss } = openPassport();
    pressKey('Escape');
    page.send(page.message('close'));
    expect(onDismiss).toHaveBeenCalledTimes(1);
  });

  it('ignores a close from the wrong origin, window or session, and BNPL-only messages', () => {
    const { page, onDismiss } = openPassport();
    page.send(page.message('close'), { origin: 'https://evil.example' });
    page.send(page.message('close'), { source: window });
    page.send(page.message('close', {}, 'b'.repeat(32)));
    page.send(page.message('completed', { status: 'approved', order_id: 'o', is_payment_completed: true }));
    page.send(page.message('push_claims_request', { credify_id: 'cred-1' }));
    expect(onDismiss).not.toHaveBeenCalled();
    expect(page.posts()).toEqual([]);
  });

  it('defaults productTypes to consumerBNPL and works without onDismiss', () => {
    const control = makeSdk().passport.showDetail({ user, marketId: 'org-1' });
    expect(currentPage().url.searchParams.get('product_types')).toBe('consumerBNPL');
    control.close();
    expect(document.querySelector('dialog')).toBeNull();
  });

  it('needs the credifyId from the availability check and a market id', () => {
    const sdk = makeSdk();
    expect(() => sdk.passport.showDetail({ user: { id: 'u-1' }, marketId: 'org-1' })).toThrowError(
      expect.objectContaining({ code: 'invalid_argument', message: expect.stringContaining('credifyId') }),
    );
    expect(() => sdk.passport.showDetail({ user, marketId: '' })).toThrowError(
      expect.objectContaining({ code: 'invalid_argument' }),
    );
    expect(document.querySelector('dialog')).toBeNull();
  });
});

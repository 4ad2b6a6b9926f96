import { describe, expect, it, vi } from 'vitest';
import { BnplSdkError, type PresentModallyOptions } from '../src/index.js';
import {
  currentPage,
  expectHostedPage,
  makeSdk,
  order,
  SERVICE_ORIGIN,
  SHOP_ORIGIN,
  user,
} from './helpers.js';

function open(overrides: Partial<PresentModallyOptions> = {}) {
  const sdk = makeSdk();
  const onCompletion = vi.fn();
  const pushClaimTokensTask = vi.fn<PresentModallyOptions['pushClaimTokensTask']>((_id, done) => done(true));
  const control = sdk.bnpl.presentModally({
    userProfile: user,
    orderInfo: order,
    pushClaimTokensTask,
    onCompletion,
    ...overrides,
  });
  return { sdk, control, onCompletion, pushClaimTokensTask, page: currentPage() };
}

const completed = { status: 'approved', order_id: order.orderId, is_payment_completed: true };

describe('presentModally', () => {
  it('opens the hosted BNPL page in an accessible modal dialog', () => {
    const { page } = open();
    expect(page.dialog.getAttribute('role')).toBe('dialog');
    expect(page.dialog.getAttribute('aria-modal')).toBe('true');
    const labelId = page.dialog.getAttribute('aria-labelledby');
    expect(labelId && document.getElementById(labelId)?.textContent).toBe('Pay later');
    expect(page.dialog.querySelector('button[aria-label="Close"]')).not.toBeNull();
    expect(document.activeElement).toBe(page.dialog.querySelector('button[aria-label="Close"]'));
    expect(page.iframe.title).toBe('Pay later');
  });

  it('follows the documented URL contract', () => {
    const { page } = open();
    expectHostedPage(page, 'bnpl', { order_id: 'ord_1', credify_id: 'cred-1' });
    expect(page.session).toMatch(/^[0-9a-f]{32}$/);
    expect(page.iframe.src).not.toContain('key-123');
  });

  it('answers page_ready with host_ready, posted only to the service origin', () => {
    const { page } = open();
    expect(page.dialog.getAttribute('aria-busy')).toBe('true');
    page.send(page.message('page_ready'));
    expect(page.posts()).toEqual([[page.message('host_ready', { flow: 'bnpl' }), SERVICE_ORIGIN]]);
    expect(page.dialog.getAttribute('aria-busy')).toBe('false');
  });

  it('reports completed once and closes the dialog', () => {
    const { page, onCompletion } = open();
    page.send(page.message('completed', completed));
    expect(onCompletion).toHaveBeenCalledExactlyOnceWith({
      status: 'approved',
      orderId: 'ord_1',
      isPaymentCompleted: true,
    });
    expect(document.querySelector('dialog')).toBeNull();
    // completed again, then a dismissal: still one call.
    page.send(page.message('completed', completed));
    page.send(page.message('close'));
    expect(onCompletion).toHaveBeenCalledTimes(1);
  });

  it('ignores messages from another origin', () => {
    const { page, onCompletion } = open();
    page.send(page.message('completed', completed), { origin: 'https://evil.example' });
    page.send(page.message('completed', completed), { origin: SHOP_ORIGIN });
    page.send(page.message('page_ready'), { origin: 'https://svc.example:8443' });
    expect(onCompletion).not.toHaveBeenCalled();
    expect(page.posts()).toEqual([]);
    expect(document.querySelector('dialog')).not.toBeNull();
  });

  it('ignores messages from another window, even from the service origin', () => {
    const { page, onCompletion } = open();
    page.send(page.message('completed', completed), { source: window });
    page.send(page.message('completed', completed), { source: { postMessage() {} } });
    page.send(page.message('completed', completed), { source: null });
    expect(onCompletion).not.toHaveBeenCalled();
  });

  it('ignores messages of another session', () => {
    const { page, onCompletion } = open();
    page.send(page.message('completed', completed, 'f'.repeat(32)));
    page.send(page.message('page_ready', {}, ''));
    expect(onCompletion).not.toHaveBeenCalled();
    expect(page.posts()).toEqual([]);
  });

  it('ignores malformed and unknown messages', () => {
    const { page, onCompletion, pushClaimTokensTask } = open();
    const base = page.message('completed', completed);
    const bad: unknown[] = [
      null,
      'completed',
      42,
      [base],
      { ...base, source: 'other-kit' },
      { ...base, version: 2 },
      { ...base, type: 'finished' },
      { ...base, type: 'constructor' },
      { ...base, type: '__proto__' },
      { ...base, payload: null },
      { ...base, payload: [] },
      { ...base, payload: { ...completed, status: 'great' } },
      { ...base, payload: { ...completed, is_payment_completed: 'yes' } },
      { ...base, payload: { ...completed, order_id: '' } },
      { ...base, payload: { ...completed, order_id: 'x'.repeat(257) } },
      page.message('push_claims_request', { credify_id: 7 }),
      page.message('push_claims_request', {}),
      page.message('host_ready', { flow: 'bnpl' }),
    ];
    for (const data of bad) page.send(data);
    expect(onCompletion).not.toHaveBeenCalled();
    expect(pushClaimTokensTask).not.toHaveBeenCalled();
    expect(page.posts()).toEqual([]);
  });

  it('ignores a completion for another order', () => {
    const { page, onCompletion } = open();
    page.send(page.message('completed', { ...completed, order_id: 'ord_2' }));
    expect(onCompletion).not.toHaveBeenCalled();
  });

  it('reports a rejection as the page sent it', () => {
    const { page, onCompletion } = open();
    page.send(
      page.message('completed', { status: 'rejected', order_id: 'ord_1', is_payment_completed: false }),
    );
    expect(onCompletion).toHaveBeenCalledExactlyOnceWith({
      status: 'rejected',
      orderId: 'ord_1',
      isPaymentCompleted: false,
    });
  });

  it('bridges push_claims_request to pushClaimTokensTask and posts the answer', () => {
    const { page, pushClaimTokensTask } = open();
    page.send(page.message('push_claims_request', { credify_id: 'cred-9', extra: 'dropped' }));
    expect(pushClaimTokensTask).toHaveBeenCalledExactlyOnceWith('cred-9', expect.any(Function));
    expect(page.posts()).toEqual([[page.message('push_claims_result', { ok: true }), SERVICE_ORIGIN]]);
  });

  it('waits for an asynchronous task, answers once, and ignores requests while one is running', async () => {
    let finish: (ok: boolean) => void = () => {};
    const pushClaimTokensTask = vi.fn((_id: string, done: (ok: boolean) => void) => {
      finish = done;
    });
    const { page } = open({ pushClaimTokensTask });
    page.send(page.message('push_claims_request', { credify_id: 'cred-1' }));
    page.send(page.message('push_claims_request', { credify_id: 'cred-1' }));
    expect(pushClaimTokensTask).toHaveBeenCalledTimes(1);
    expect(page.posts()).toEqual([]);
    finish(false);
    finish(true);
    expect(page.posts()).toEqual([[page.message('push_claims_result', { ok: false }), SERVICE_ORIGIN]]);
    // Answered: a new request runs the task again.
    page.send(page.message('push_claims_request', { credify_id: 'cred-1' }));
    expect(pushClaimTokensTask).toHaveBeenCalledTimes(2);
  });

  it('answers false when the task throws or its promise rejects', async () => {
    const { page } = open({
      pushClaimTokensTask: () => {
        throw new Error('backend down');
      },
    });
    page.send(page.message('push_claims_request', { credify_id: 'cred-1' }));
    expect(page.posts().at(-1)).toEqual([page.message('push_claims_result', { ok: false }), SERVICE_ORIGIN]);
    page.window.postMessage.mockClear();
    page.dialog.querySelector('button')?.click();

    const rejected = Promise.reject(new Error('403'));
    const second = open({ pushClaimTokensTask: () => rejected });
    second.page.send(second.page.message('push_claims_request', { credify_id: 'cred-1' }));
    await rejected.catch(() => {});
    await Promise.resolve();
    expect(second.page.posts()).toEqual([
      [second.page.message('push_claims_result', { ok: false }), SERVICE_ORIGIN],
    ]);
  });

  it('posts nothing when the task answers after the dialog closed', () => {
    let finish: (ok: boolean) => void = () => {};
    const { page } = open({
      pushClaimTokensTask: (_id, done) => {
        finish = done;
      },
    });
    page.send(page.message('push_claims_request', { credify_id: 'cred-1' }));
    page.send(page.message('close'));
    finish(true);
    expect(page.posts()).toEqual([]);
  });

  it('refuses a second flow while one is open and leaves the first intact', () => {
    const first = open();
    const sdk = makeSdk();
    const secondCompletion = vi.fn();
    const attempt = () =>
      sdk.bnpl.presentModally({
        userProfile: user,
        orderInfo: { ...order, orderId: 'ord_2' },
        pushClaimTokensTask: (_id, done) => done(true),
        onCompletion: secondCompletion,
      });
    expect(attempt).toThrowError(expect.objectContaining({ code: 'flow_in_progress' }));
    expect(() => sdk.passport.showDetail({ user, marketId: 'org-1' })).toThrow(BnplSdkError);
    expect(document.querySelectorAll('dialog')).toHaveLength(1);

    first.page.send(first.page.message('completed', completed));
    expect(first.onCompletion).toHaveBeenCalledExactlyOnceWith({
      status: 'approved',
      orderId: 'ord_1',
      isPaymentCompleted: true,
    });
    expect(secondCompletion).not.toHaveBeenCalled();
    // Once the first has closed, a new flow opens with its own session.
    attempt();
    expect(currentPage().session).not.toBe(first.page.session);
  });

  it('lets a completion callback open the next flow', () => {
    const sdk = makeSdk();
    const { page } = open({
      onCompletion: () => {
        sdk.passport.showDetail({ user, marketId: 'org-1' });
      },
    });
    page.send(page.message('completed', completed));
    expect(currentPage().url.pathname).toBe('/sandbox-service/pages/passport');
  });

  it('rejects unusable arguments before opening anything', () => {
    const sdk = makeSdk();
    const base = { userProfile: user, orderInfo: order, pushClaimTokensTask: vi.fn(), onCompletion: vi.fn() };
    const cases = [
      { ...base, userProfile: { id: '' } },
      { ...base, orderInfo: { ...order, orderId: '' } },
      { ...base, orderInfo: { ...order, orderAmount: { value: '1.5', currency: 'VND' } } },
      { ...base, onCompletion: undefined },
    ];
    for (const options of cases) {
      expect(() => sdk.bnpl.presentModally(options as unknown as PresentModallyOptions)).toThrowError(
        expect.objectContaining({ code: 'invalid_argument' }),
      );
    }
    expect(document.querySelector('dialog')).toBeNull();
  });
});

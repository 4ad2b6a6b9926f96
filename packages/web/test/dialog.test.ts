import { afterEach, describe, expect, it, vi } from 'vitest';
import { currentPage, makeSdk, order, pressKey, SERVICE_ORIGIN, user } from './helpers.js';

function openBnpl() {
  const onCompletion = vi.fn();
  const control = makeSdk().bnpl.presentModally({
    userProfile: user,
    orderInfo: order,
    pushClaimTokensTask: (_id, done) => done(true),
    onCompletion,
  });
  const page = currentPage();
  const closeButton = page.dialog.querySelector<HTMLButtonElement>('button[aria-label="Close"]')!;
  return { control, onCompletion, page, closeButton };
}

const dismissed = { status: 'dismissed', orderId: 'ord_1', isPaymentCompleted: false };

function outsideButton() {
  const button = document.createElement('button');
  button.textContent = 'Pay later';
  document.body.append(button);
  button.focus();
  return button;
}

describe('the BNPL dialog', () => {
  afterEach(() => vi.restoreAllMocks());

  it('is dismissed by Escape, once', () => {
    const { onCompletion } = openBnpl();
    const event = pressKey('Escape');
    expect(event.defaultPrevented).toBe(true);
    pressKey('Escape', {}, document);
    expect(onCompletion).toHaveBeenCalledExactlyOnceWith(dismissed);
    expect(document.querySelector('dialog')).toBeNull();
  });

  it('is dismissed by its close button', () => {
    const { onCompletion, closeButton } = openBnpl();
    closeButton.click();
    expect(onCompletion).toHaveBeenCalledExactlyOnceWith(dismissed);
    expect(document.querySelector('dialog')).toBeNull();
  });

  it("is dismissed by the dialog's cancel event without closing natively", () => {
    const { onCompletion, page } = openBnpl();
    const cancel = new Event('cancel', { cancelable: true });
    page.dialog.dispatchEvent(cancel);
    expect(cancel.defaultPrevented).toBe(true);
    expect(onCompletion).toHaveBeenCalledExactlyOnceWith(dismissed);
  });

  it('is dismissed from code through the returned control', () => {
    const { onCompletion, control } = openBnpl();
    control.close();
    control.close();
    expect(onCompletion).toHaveBeenCalledExactlyOnceWith(dismissed);
  });

  it('reports completed then ignores a dismissal', () => {
    const { onCompletion, page, closeButton } = openBnpl();
    page.send(
      page.message('completed', { status: 'pending', order_id: 'ord_1', is_payment_completed: false }),
    );
    closeButton.click();
    pressKey('Escape', {}, document);
    expect(onCompletion).toHaveBeenCalledExactlyOnceWith({
      status: 'pending',
      orderId: 'ord_1',
      isPaymentCompleted: false,
    });
  });

  it('fits the height the page reports, within its maximum, and a resize is no completion', () => {
    const { onCompletion, page } = openBnpl();
    const iframe = page.dialog.querySelector('iframe')!;
    page.send(page.message('resize', { height: 240 }));
    expect(iframe.style.height).toBe('240px');
    expect(page.dialog.style.height).toBe('fit-content');
    expect(page.dialog.style.maxHeight).toMatch(/^min\(720px, ?calc\(100vh - 32px\)\)$/);
    page.send(page.message('resize', { height: 600 }));
    expect(iframe.style.height).toBe('600px');
    expect(onCompletion).not.toHaveBeenCalled();
    expect(document.querySelector('dialog')).not.toBeNull();
  });

  it('moves focus in on open and restores it on close', () => {
    const trigger = outsideButton();
    const { closeButton } = openBnpl();
    expect(document.activeElement).toBe(closeButton);
    closeButton.click();
    expect(document.activeElement).toBe(trigger);
  });

  it('keeps focus within the dialog', () => {
    const { page, closeButton } = openBnpl();
    expect(pressKey('Tab', { shiftKey: true }).defaultPrevented).toBe(true);
    expect(document.activeElement).toBe(page.iframe);
    expect(pressKey('Tab').defaultPrevented).toBe(true);
    expect(document.activeElement).toBe(closeButton);

    const stray = document.createElement('button');
    document.body.append(stray);
    stray.focus();
    expect(document.activeElement).toBe(closeButton);
  });

  it('leaves no listener and no node behind', () => {
    const added: Array<[EventTarget, string, unknown, unknown]> = [];
    const removed: Array<[EventTarget, string, unknown, unknown]> = [];
    const capture = (options: unknown) =>
      typeof options === 'object' ? (options as { capture?: boolean } | null)?.capture : options;
    // The global window's methods are bound copies (vitest populates globals from happy-dom), so the
    // window is spied on by itself, and every node through happy-dom's EventTarget prototype.
    let proto: EventTarget = document.body;
    while (!Object.hasOwn(proto, 'addEventListener')) proto = Object.getPrototypeOf(proto);
    for (const target of [window, proto]) {
      for (const [method, log] of [
        ['addEventListener', added],
        ['removeEventListener', removed],
      ] as const) {
        const original = target[method];
        vi.spyOn(target, method).mockImplementation(function (
          this: EventTarget,
          type: string,
          listener: EventListenerOrEventListenerObject | null,
          options?: boolean | EventListenerOptions,
        ) {
          log.push([this ?? window, type, listener, capture(options)]);
          return original.call(this ?? window, type, listener, options);
        });
      }
    }
    const before = document.body.childNodes.length;

    const { onCompletion, page, closeButton } = openBnpl();
    expect(added.map(([, type]) => type).sort()).toEqual([
      'cancel',
      'click',
      'focusin',
      'keydown',
      'message',
    ]);
    closeButton.click();

    for (const entry of added) {
      expect(removed).toContainEqual(entry);
    }
    expect(document.body.childNodes.length).toBe(before);
    expect(document.querySelector('style')).toBeNull();

    // And nothing reacts any more.
    page.send(page.message('page_ready'));
    page.send(
      page.message('completed', { status: 'approved', order_id: 'ord_1', is_payment_completed: true }),
    );
    pressKey('Escape', {}, document);
    expect(page.posts()).toEqual([]);
    expect(onCompletion).toHaveBeenCalledTimes(1);
  });

  it('posts to the exact service origin, never "*"', () => {
    const { page } = openBnpl();
    page.send(page.message('page_ready'));
    page.send(page.message('push_claims_request', { credify_id: 'cred-1' }));
    expect(page.posts().map(([, origin]) => origin)).toEqual([SERVICE_ORIGIN, SERVICE_ORIGIN]);
  });
});

describe('the dialog’s iframe sandbox', () => {
  it('sandboxes a page of the service’s own origin: scripts and its origin, no top navigation', () => {
    makeSdk().bnpl.presentModally({
      userProfile: user,
      orderInfo: order,
      pushClaimTokensTask: (_id, done) => done(true),
      onCompletion: vi.fn(),
    });
    const iframe = currentPage().iframe;
    expect(new URL(iframe.src).origin).toBe(SERVICE_ORIGIN);
    expect(iframe.getAttribute('sandbox')?.split(' ').sort()).toEqual([
      'allow-forms',
      'allow-popups',
      'allow-same-origin',
      'allow-scripts',
    ]);
  });

  it('leaves off a sandbox a page of the market’s own origin could lift (Chromium’s warning)', () => {
    makeSdk({ serviceUrl: `${location.origin}/sandbox-service` }).bnpl.presentModally({
      userProfile: user,
      orderInfo: order,
      pushClaimTokensTask: (_id, done) => done(true),
      onCompletion: vi.fn(),
    });
    const iframe = document.querySelector('dialog[data-bnpl-kit] iframe') as HTMLIFrameElement;
    expect(new URL(iframe.src).origin).toBe(location.origin);
    expect(iframe.hasAttribute('sandbox')).toBe(false);
  });
});

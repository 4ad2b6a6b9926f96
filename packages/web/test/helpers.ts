import { expect, vi } from 'vitest';
import { type BnplSdk, type ConfigureOptions, configure } from '../src/index.js';

export const SHOP_ORIGIN = 'https://shop.example';
export const SERVICE_ORIGIN = 'https://svc.example';
export const SERVICE_URL = `${SERVICE_ORIGIN}/sandbox-service`;

export function makeSdk(overrides: Partial<ConfigureOptions> = {}): BnplSdk {
  return configure({
    apiKey: 'key-123',
    env: 'sandbox',
    appName: 'Demo Shop',
    serviceUrl: SERVICE_URL,
    ...overrides,
  });
}

export interface FakePage {
  iframe: HTMLIFrameElement;
  dialog: HTMLDialogElement;
  /** Stands in for iframe.contentWindow (happy-dom loads no iframe page here). */
  window: { postMessage: ReturnType<typeof vi.fn> };
  url: URL;
  session: string;
  /** Posts as the hosted page would: right origin, right source window. */
  send(data: unknown, from?: { origin?: string; source?: unknown }): void;
  message(type: string, payload?: unknown, session?: string): Record<string, unknown>;
  /** What the SDK posted to the page: [message, targetOrigin] pairs. */
  posts(): Array<[Record<string, unknown>, string]>;
}

const fakeWindows = new WeakMap<HTMLIFrameElement, FakePage['window']>();

/** The open dialog's iframe, wired to a fake page window. */
export function currentPage(): FakePage {
  const dialog = document.querySelector<HTMLDialogElement>('dialog[data-bnpl-kit]');
  const iframe = dialog?.querySelector('iframe');
  if (!dialog || !iframe) throw new Error('no BNPL dialog is open');
  let fakeWindow = fakeWindows.get(iframe);
  if (!fakeWindow) {
    // happy-dom's cross-origin window proxy cannot be observed, and happy-dom gives a child's
    // messages the wrong `source`; a plain stand-in, set where the SDK reads it, can be.
    fakeWindow = { postMessage: vi.fn() };
    fakeWindows.set(iframe, fakeWindow);
    Object.defineProperty(iframe, 'contentWindow', { value: fakeWindow, configurable: true });
  }
  const pageWindow = fakeWindow;
  const url = new URL(iframe.src);
  const session = url.searchParams.get('session') ?? '';
  const page: FakePage = {
    iframe,
    dialog,
    window: pageWindow,
    url,
    session,
    send(data, from = {}) {
      window.dispatchEvent(
        new MessageEvent('message', {
          data,
          origin: from.origin ?? SERVICE_ORIGIN,
          source: (from.source === undefined ? pageWindow : from.source) as MessageEventSource,
        }),
      );
    },
    message: (type, payload = {}, s = session) => ({
      source: 'bnpl-kit',
      version: 1,
      session: s,
      type,
      payload,
    }),
    posts: () => pageWindow.postMessage.mock.calls as Array<[Record<string, unknown>, string]>,
  };
  return page;
}

/** The page opened is `pages/<name>` of the service, with `params` besides the SDK's own. */
export function expectHostedPage(page: FakePage, name: string, params: Record<string, string>): void {
  expect(page.url.origin + page.url.pathname).toBe(`${SERVICE_URL}/pages/${name}`);
  expect(Object.fromEntries(page.url.searchParams)).toEqual({
    ...params,
    app_name: 'Demo Shop',
    origin: SHOP_ORIGIN,
    session: page.session,
  });
}

export function pressKey(
  key: string,
  init: KeyboardEventInit = {},
  target: EventTarget = document.activeElement ?? document,
) {
  const event = new KeyboardEvent('keydown', { key, bubbles: true, cancelable: true, ...init });
  target.dispatchEvent(event);
  return event;
}

export const order = { orderId: 'ord_1', orderAmount: { value: '1500000', currency: 'VND' } };
export const user = {
  id: 'u-1',
  credifyId: 'cred-1',
  firstName: 'An',
  phoneNumber: '0900000000',
  countryCode: '+84',
};

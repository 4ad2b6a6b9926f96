import { describe, expect, it, vi } from 'vitest';
import { type BnplCompletion, createPageBridge, readPageBridgeParams } from '../src/index.js';
import { makeSdk, order, SERVICE_ORIGIN, SHOP_ORIGIN, user } from './helpers.js';

const session = '0123456789abcdef0123456789abcdef';

/** A page window (an event target) and a host window that records what the page posts. */
function pageSide() {
  const self = new EventTarget() as unknown as Window;
  const parent = { postMessage: vi.fn() } as unknown as Window & { postMessage: ReturnType<typeof vi.fn> };
  const bridge = createPageBridge({ parentOrigin: SHOP_ORIGIN, session, self, parent });
  const fromHost = (data: unknown, from: { origin?: string; source?: unknown } = {}) =>
    self.dispatchEvent(
      new MessageEvent('message', {
        data,
        origin: from.origin ?? SHOP_ORIGIN,
        source: (from.source === undefined ? parent : from.source) as MessageEventSource,
      }),
    );
  const hostMessage = (type: string, payload: unknown, s = session) => ({
    source: 'bnpl-kit',
    version: 1,
    session: s,
    type,
    payload,
  });
  return { self, parent, bridge, fromHost, hostMessage };
}

describe('createPageBridge', () => {
  it('posts protocol messages to the exact host origin', () => {
    const { bridge, parent } = pageSide();
    bridge.ready();
    bridge.complete({ status: 'approved', orderId: 'ord_1', isPaymentCompleted: true });
    bridge.close();
    expect(parent.postMessage.mock.calls).toEqual([
      [{ source: 'bnpl-kit', version: 1, session, type: 'page_ready', payload: {} }, SHOP_ORIGIN],
      [
        {
          source: 'bnpl-kit',
          version: 1,
          session,
          type: 'completed',
          payload: { status: 'approved', order_id: 'ord_1', is_payment_completed: true },
        },
        SHOP_ORIGIN,
      ],
      [{ source: 'bnpl-kit', version: 1, session, type: 'close', payload: {} }, SHOP_ORIGIN],
    ]);
  });

  it('resolves a push-claims request with the host answer, ignoring impostors', async () => {
    const { bridge, parent, fromHost, hostMessage } = pageSide();
    const answer = bridge.requestPushClaims('cred-1');
    expect(bridge.requestPushClaims('cred-1')).toBe(answer);
    expect(parent.postMessage).toHaveBeenCalledTimes(1);

    const settled = vi.fn();
    answer.then(settled);
    fromHost(hostMessage('push_claims_result', { ok: false }), { origin: 'https://evil.example' });
    fromHost(hostMessage('push_claims_result', { ok: false }), { source: new EventTarget() });
    fromHost(hostMessage('push_claims_result', { ok: false }, 'f'.repeat(32)));
    fromHost(hostMessage('push_claims_result', { ok: 'no' }));
    await Promise.resolve();
    expect(settled).not.toHaveBeenCalled();

    fromHost(hostMessage('push_claims_result', { ok: true }));
    await expect(answer).resolves.toBe(true);
  });

  it('delivers host_ready to subscribers until they unsubscribe or the bridge is destroyed', async () => {
    const { bridge, fromHost, hostMessage, parent } = pageSide();
    const onReady = vi.fn();
    const off = bridge.on('host_ready', onReady);
    fromHost(hostMessage('host_ready', { flow: 'bnpl' }));
    expect(onReady).toHaveBeenCalledExactlyOnceWith({ flow: 'bnpl' });
    off();
    fromHost(hostMessage('host_ready', { flow: 'bnpl' }));
    expect(onReady).toHaveBeenCalledTimes(1);

    bridge.on('host_ready', onReady);
    const pending = bridge.requestPushClaims('cred-1');
    bridge.destroy();
    await expect(pending).resolves.toBe(false);
    fromHost(hostMessage('host_ready', { flow: 'bnpl' }));
    bridge.ready();
    expect(onReady).toHaveBeenCalledTimes(1);
    expect(parent.postMessage).toHaveBeenCalledTimes(1);
  });

  it('refuses a wildcard or opaque host origin', () => {
    for (const parentOrigin of ['*', 'null', '']) {
      expect(() =>
        createPageBridge({ parentOrigin, session, self: new EventTarget() as unknown as Window }),
      ).toThrow();
    }
  });

  it('reads only well-formed page parameters', () => {
    const ok = `?order_id=o&origin=${encodeURIComponent(SHOP_ORIGIN)}&session=${session}`;
    expect(readPageBridgeParams(ok)).toEqual({ parentOrigin: SHOP_ORIGIN, session });
    expect(
      readPageBridgeParams(`?origin=${encodeURIComponent(`${SHOP_ORIGIN}/path`)}&session=${session}`),
    ).toBeNull();
    expect(readPageBridgeParams(`?origin=*&session=${session}`)).toBeNull();
    expect(readPageBridgeParams(`?origin=${encodeURIComponent(SHOP_ORIGIN)}&session=short`)).toBeNull();
    expect(readPageBridgeParams('')).toBeNull();
  });
});

describe('SDK and page bridge together', () => {
  it('run a data-sharing flow end to end through the protocol', async () => {
    const pushClaimTokensTask = vi.fn(async (_credifyId: string, done: (ok: boolean) => void) => {
      await Promise.resolve();
      done(true);
    });
    const completion = new Promise<BnplCompletion>((resolve) => {
      makeSdk().bnpl.presentModally({
        userProfile: user,
        orderInfo: order,
        pushClaimTokensTask,
        onCompletion: resolve,
      });
    });

    // Wire the iframe to a page that runs createPageBridge, delivering posts as browsers do: in a
    // later task, only when the target origin matches, with the sender's origin and window.
    const iframe = document.querySelector('iframe')!;
    const params = readPageBridgeParams(new URL(iframe.src).search)!;
    const pageSelf = new EventTarget();
    // A window whose posts reach `receiver` as browsers deliver them: in a later task, only when
    // the target origin is `to`, from origin `from` and the window `source()`.
    const windowPosting = (receiver: EventTarget, to: string, from: string, source: () => unknown) => ({
      postMessage(data: unknown, targetOrigin: string) {
        if (targetOrigin !== to) return;
        queueMicrotask(() =>
          receiver.dispatchEvent(
            new MessageEvent('message', { data, origin: from, source: source() as MessageEventSource }),
          ),
        );
      },
    });
    const pageWindow = windowPosting(pageSelf, SERVICE_ORIGIN, SHOP_ORIGIN, () => hostWindow);
    const hostWindow = windowPosting(window, SHOP_ORIGIN, SERVICE_ORIGIN, () => pageWindow);
    Object.defineProperty(iframe, 'contentWindow', { value: pageWindow, configurable: true });
    const bridge = createPageBridge({
      ...params,
      self: pageSelf as unknown as Window,
      parent: hostWindow as unknown as Window,
    });

    const hostReady = new Promise((resolve) => bridge.on('host_ready', resolve));
    bridge.ready();
    await expect(hostReady).resolves.toEqual({ flow: 'bnpl' });
    await expect(bridge.requestPushClaims('cred-1')).resolves.toBe(true);
    expect(pushClaimTokensTask).toHaveBeenCalledWith('cred-1', expect.any(Function));
    bridge.complete({ status: 'approved', orderId: order.orderId, isPaymentCompleted: true });
    await expect(completion).resolves.toEqual({
      status: 'approved',
      orderId: 'ord_1',
      isPaymentCompleted: true,
    });
    expect(document.querySelector('dialog')).toBeNull();
    bridge.destroy();
  });
});

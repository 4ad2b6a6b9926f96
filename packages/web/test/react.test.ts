import { act, createElement } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { type BnplSdk, BnplSdkError } from '../src/index.js';
import { type UseBnpl, useBnpl } from '../src/react.js';
import { currentPage, makeSdk, order, user } from './helpers.js';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

let root: Root | undefined;
let hookValue: UseBnpl | undefined;

function Probe({ sdk }: { sdk: BnplSdk }) {
  hookValue = useBnpl(sdk);
  return null;
}

/** Renders a component that uses the hook; `latest()` is the hook's value after the last render. */
async function renderHook(sdk: BnplSdk) {
  const container = document.createElement('div');
  document.body.append(container);
  root = createRoot(container);
  await act(async () => root!.render(createElement(Probe, { sdk })));
  return { latest: () => hookValue! };
}

const json = (body: unknown, status = 200) => new Response(JSON.stringify(body), { status });

describe('useBnpl', () => {
  afterEach(async () => {
    await act(async () => root?.unmount());
    root = undefined;
  });

  it('tracks availability as state', async () => {
    const fetch = vi.fn(async (input: RequestInfo | URL) =>
      String(input).endsWith('/v1/token')
        ? json({ success: true, data: { access_token: 't', expires_in: 600 } })
        : json({ success: true, data: { offers: [{}], credify_id: 'cred-5' } }),
    );
    const hook = await renderHook(makeSdk({ fetch }));
    expect(hook.latest().availability).toEqual({ status: 'idle' });
    let result: unknown;
    await act(async () => {
      result = await hook.latest().checkAvailability(user);
    });
    expect(result).toEqual({ isAvailable: true, credifyId: 'cred-5' });
    expect(hook.latest().availability).toEqual({ status: 'done', isAvailable: true, credifyId: 'cred-5' });
  });

  it('keeps the typed error in state and rethrows it', async () => {
    const hook = await renderHook(makeSdk({ fetch: vi.fn(async () => json({ success: false }, 401)) }));
    let caught: unknown;
    await act(async () => {
      caught = await hook
        .latest()
        .checkAvailability(user)
        .catch((e: unknown) => e);
    });
    expect(caught).toBeInstanceOf(BnplSdkError);
    expect(hook.latest().availability).toEqual({ status: 'error', error: caught });
  });

  it('turns the BNPL dialog into a promise, answering push-claims as basic mode by default', async () => {
    const hook = await renderHook(makeSdk());
    const completion = hook.latest().payLater({ userProfile: user, orderInfo: order });
    const page = currentPage();
    page.send(page.message('push_claims_request', { credify_id: 'cred-1' }));
    expect(page.posts()).toEqual([[page.message('push_claims_result', { ok: true }), 'https://svc.example']]);
    page.send(
      page.message('completed', { status: 'approved', order_id: 'ord_1', is_payment_completed: true }),
    );
    await expect(completion).resolves.toEqual({
      status: 'approved',
      orderId: 'ord_1',
      isPaymentCompleted: true,
    });
  });

  it('rejects payLater when a dialog is already open', async () => {
    const hook = await renderHook(makeSdk());
    const first = hook.latest().showPassport({ user, marketId: 'org-1' });
    await expect(hook.latest().payLater({ userProfile: user, orderInfo: order })).rejects.toMatchObject({
      code: 'flow_in_progress',
    });
    currentPage().send(currentPage().message('close'));
    await expect(first).resolves.toBeUndefined();
  });

  it('closes an open dialog when the component unmounts', async () => {
    const hook = await renderHook(makeSdk());
    const completion = hook.latest().payLater({ userProfile: user, orderInfo: order });
    await act(async () => root!.unmount());
    root = undefined;
    await expect(completion).resolves.toEqual({
      status: 'dismissed',
      orderId: 'ord_1',
      isPaymentCompleted: false,
    });
    expect(document.querySelector('dialog')).toBeNull();
  });
});

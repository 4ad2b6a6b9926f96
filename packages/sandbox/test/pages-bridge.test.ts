/**
 * The pages' inline copy of the SDK's page bridge, run as plain JavaScript (as a browser would) and
 * checked against the web SDK's own validators and message builders, so the copy cannot drift from
 * the protocol.
 */
import { runInNewContext } from 'node:vm';
import { createHostMessage, parsePageMessage } from '@bnpl-kit/web/page';
import { describe, expect, it } from 'vitest';
import { BRIDGE_SCRIPT } from '../src/pages/bridge-script.js';

const ORIGIN = 'https://shop.example';
const SESSION = 'fedcba9876543210fedcba9876543210';

interface Bridge {
  ready(): void;
  onHostReady(handler: (payload: unknown) => void): void;
  requestPushClaims(credifyId: string): Promise<boolean>;
  complete(status: string, orderId: string, isPaymentCompleted: boolean): void;
  close(): void;
  resize(height: number): void;
}

function loadBridge() {
  const posted: { message: unknown; target: string }[] = [];
  const listeners: ((event: unknown) => void)[] = [];
  const parent = { postMessage: (message: unknown, target: string) => posted.push({ message, target }) };
  const window = {
    parent,
    addEventListener: (type: string, listener: (event: unknown) => void) => {
      if (type === 'message') listeners.push(listener);
    },
  };
  const context = { window, parentOrigin: ORIGIN, session: SESSION, bridge: undefined as Bridge | undefined };
  runInNewContext(`${BRIDGE_SCRIPT}\nbridge = createBridge(parentOrigin, session);`, context);
  const deliver = (data: unknown, origin = ORIGIN, source: unknown = parent) => {
    for (const listener of listeners) listener({ data, origin, source });
  };
  // Messages cross back into this realm the way structured clone would carry them.
  const sent = () =>
    posted.map((p) => ({ message: JSON.parse(JSON.stringify(p.message)), target: p.target }));
  return { bridge: context.bridge!, sent, deliver };
}

describe('the hosted pages’ inline bridge', () => {
  it('posts protocol messages the SDK accepts, to the market origin only', () => {
    const { bridge, sent } = loadBridge();
    bridge.ready();
    bridge.complete('approved', 'ord_1', true);
    bridge.close();
    bridge.resize(312.4);
    const messages = sent();
    expect(messages.map((m) => m.target)).toEqual([ORIGIN, ORIGIN, ORIGIN, ORIGIN]);
    expect(messages.map((m) => parsePageMessage(m.message, SESSION))).toEqual([
      createPageLike('page_ready', {}),
      createPageLike('completed', { status: 'approved', order_id: 'ord_1', is_payment_completed: true }),
      createPageLike('close', {}),
      createPageLike('resize', { height: 313 }),
    ]);
  });

  it('hears host_ready only from the parent window at the market origin, in its session', () => {
    const { bridge, deliver } = loadBridge();
    const heard: unknown[] = [];
    bridge.onHostReady((payload) => heard.push(payload));
    const message = createHostMessage(SESSION, 'host_ready', { flow: 'bnpl' });
    deliver(message, 'https://evil.example');
    deliver(message, ORIGIN, {});
    deliver(createHostMessage('0'.repeat(32), 'host_ready', { flow: 'bnpl' }));
    deliver({ ...message, payload: { flow: 'other' } });
    deliver({ ...message, version: 2 });
    deliver('host_ready');
    expect(heard).toEqual([]);
    deliver(message);
    expect(heard).toEqual([{ flow: 'bnpl' }]);
  });

  it('asks for claims once at a time and resolves with the host’s answer', async () => {
    const { bridge, sent, deliver } = loadBridge();
    const first = bridge.requestPushClaims('crf_1');
    const second = bridge.requestPushClaims('crf_1');
    expect(second).toBe(first);
    expect(sent().map((m) => parsePageMessage(m.message, SESSION))).toEqual([
      createPageLike('push_claims_request', { credify_id: 'crf_1' }),
    ]);
    deliver({ ...createHostMessage(SESSION, 'push_claims_result', { ok: true }), payload: { ok: 'yes' } });
    deliver(createHostMessage(SESSION, 'push_claims_result', { ok: true }), 'https://evil.example');
    deliver(createHostMessage(SESSION, 'push_claims_result', { ok: false }));
    await expect(first).resolves.toBe(false);
    const retry = bridge.requestPushClaims('crf_1');
    deliver(createHostMessage(SESSION, 'push_claims_result', { ok: true }));
    await expect(retry).resolves.toBe(true);
  });
});

function createPageLike(type: string, payload: Record<string, unknown>) {
  return { source: 'bnpl-kit', version: 1, session: SESSION, type, payload };
}

/**
 * The hosted page's side of the SDK dialog protocol, as inline browser JavaScript: a faithful copy of
 * `createPageBridge` from `@bnpl-kit/web/page` (protocol.ts is the contract), so the pages need no
 * bundle and the sandbox no dependency on the web SDK. test/pages-bridge.test.ts runs this text
 * against the SDK's own message validators, so the two cannot drift apart unnoticed.
 *
 * It defines `createBridge(parentOrigin, session)` in the enclosing script's scope. Rules kept from
 * the original: post only to `parentOrigin`, never '*'; accept a message only from `parentOrigin`,
 * from `window.parent`, with the flow's session and a known shape; one push request at a time.
 */
export const BRIDGE_SCRIPT = `
function createBridge(parentOrigin, session) {
  const parentWindow = window.parent;
  const readyHandlers = [];
  let pendingPush = null;
  const isRecord = (v) => typeof v === 'object' && v !== null && !Array.isArray(v);
  const post = (type, payload) =>
    parentWindow.postMessage({ source: 'bnpl-kit', version: 1, session, type, payload }, parentOrigin);
  window.addEventListener('message', (event) => {
    if (event.origin !== parentOrigin || event.source !== parentWindow) return;
    const data = event.data;
    if (!isRecord(data) || data.source !== 'bnpl-kit' || data.version !== 1) return;
    if (data.session !== session || !isRecord(data.payload)) return;
    const payload = data.payload;
    if (data.type === 'host_ready') {
      if (payload.flow !== 'bnpl' && payload.flow !== 'passport') return;
      for (const handler of readyHandlers) handler({ flow: payload.flow });
    } else if (data.type === 'push_claims_result') {
      if (typeof payload.ok !== 'boolean' || pendingPush === null) return;
      const resolve = pendingPush.resolve;
      pendingPush = null;
      resolve(payload.ok);
    }
  });
  return {
    ready: () => post('page_ready', {}),
    onHostReady: (handler) => readyHandlers.push(handler),
    requestPushClaims(credifyId) {
      if (pendingPush !== null) return pendingPush.promise;
      let resolve;
      const promise = new Promise((r) => { resolve = r; });
      pendingPush = { promise, resolve };
      post('push_claims_request', { credify_id: credifyId });
      return promise;
    },
    complete: (status, orderId, isPaymentCompleted) =>
      post('completed', { status, order_id: orderId, is_payment_completed: isPaymentCompleted }),
    close: () => post('close', {}),
    resize: (height) => post('resize', { height }),
  };
}
`;

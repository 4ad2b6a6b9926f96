import {
  createPageMessage,
  type HostMessages,
  type PageCompletionStatus,
  type PageMessages,
  parseHostMessage,
} from './protocol.js';

/**
 * The hosted page's side of the protocol (see ./protocol.ts), for the service's pages. It depends
 * on protocol.ts only, so a page can bundle it or inline a copy. It posts only to the host origin
 * given by the page URL's `origin` parameter, and accepts only messages from that origin, from
 * window.parent, with the flow's session and a valid shape.
 */

export interface PageBridgeOptions {
  /** The `origin` page parameter; check it against the market's registered origins before use. */
  parentOrigin: string;
  /** The `session` page parameter. */
  session: string;
  /** The page's own window; default `window`. */
  self?: Window;
  /** The host window; default `window.parent`. */
  parent?: Window;
}

export interface PageBridge {
  /** Tells the host the page is up; the host answers `host_ready`. */
  ready(): void;
  /** Asks the host to push claims (data-sharing mode); resolves with the host's answer. */
  requestPushClaims(credifyId: string): Promise<boolean>;
  /** Ends the flow with a result; the host closes the dialog. */
  complete(result: { status: PageCompletionStatus; orderId: string; isPaymentCompleted: boolean }): void;
  /** Ends the flow as the user leaving (the host reports 'dismissed'). */
  close(): void;
  /** Tells the host how tall the page's content is, so the dialog fits it. */
  resize(height: number): void;
  on<T extends keyof HostMessages>(type: T, handler: (payload: HostMessages[T]) => void): () => void;
  /** Removes the listener; a pending requestPushClaims resolves false. */
  destroy(): void;
}

/** Reads and checks the `origin` and `session` parameters of a hosted page URL; null if unusable. */
export function readPageBridgeParams(search: string): { parentOrigin: string; session: string } | null {
  const params = new URLSearchParams(search);
  const origin = params.get('origin');
  const session = params.get('session');
  if (!origin || !session || !/^[0-9a-f]{32}$/.test(session)) return null;
  try {
    // Only a bare origin is usable as a postMessage target; anything else is refused, not fixed up.
    if (new URL(origin).origin !== origin) return null;
  } catch {
    return null;
  }
  return { parentOrigin: origin, session };
}

export function createPageBridge(options: PageBridgeOptions): PageBridge {
  const { parentOrigin, session } = options;
  if (!parentOrigin || parentOrigin === '*' || parentOrigin === 'null') {
    throw new Error('createPageBridge needs the exact origin of the host page');
  }
  const self = options.self ?? window;
  const parent = options.parent ?? self.parent;
  const handlers = new Map<keyof HostMessages, Set<(payload: never) => void>>();
  let pendingPush: { promise: Promise<boolean>; resolve: (ok: boolean) => void } | undefined;
  let destroyed = false;

  const post = <T extends keyof PageMessages>(type: T, payload: PageMessages[T]) => {
    if (!destroyed) parent.postMessage(createPageMessage(session, type, payload), parentOrigin);
  };

  const onMessage = (event: MessageEvent) => {
    if (event.origin !== parentOrigin || event.source !== parent) return;
    const message = parseHostMessage(event.data, session);
    if (message === null) return;
    if (message.type === 'push_claims_result' && pendingPush) {
      const { resolve } = pendingPush;
      pendingPush = undefined;
      resolve(message.payload.ok);
    }
    for (const handler of handlers.get(message.type) ?? []) {
      (handler as (payload: unknown) => void)(message.payload);
    }
  };
  self.addEventListener('message', onMessage);

  return {
    ready: () => post('page_ready', {}),
    requestPushClaims(credifyId) {
      if (destroyed) return Promise.resolve(false);
      // One request at a time, as the host handles them: a second call shares the first answer.
      if (pendingPush) return pendingPush.promise;
      let resolve!: (ok: boolean) => void;
      const promise = new Promise<boolean>((r) => {
        resolve = r;
      });
      pendingPush = { promise, resolve };
      post('push_claims_request', { credify_id: credifyId });
      return promise;
    },
    complete: (result) =>
      post('completed', {
        status: result.status,
        order_id: result.orderId,
        is_payment_completed: result.isPaymentCompleted,
      }),
    close: () => post('close', {}),
    resize: (height) => post('resize', { height }),
    on(type, handler) {
      const set = handlers.get(type) ?? new Set();
      handlers.set(type, set);
      set.add(handler);
      return () => {
        set.delete(handler);
      };
    },
    destroy() {
      if (destroyed) return;
      destroyed = true;
      self.removeEventListener('message', onMessage);
      pendingPush?.resolve(false);
      pendingPush = undefined;
    },
  };
}

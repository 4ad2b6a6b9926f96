import { openDialog } from './dialog.js';
import { BnplSdkError } from './errors.js';
import {
  createHostMessage,
  type FlowKind,
  type HostMessages,
  type PageMessage,
  parsePageMessage,
} from './protocol.js';

/**
 * One hosted page in the dialog and the message channel to it. A flow owns its session nonce and
 * its state in this closure, so nothing a later flow does can reach its callbacks; on top of that
 * only one flow may be open on a page at a time (two stacked modals would fight over focus), and
 * opening a second one throws `flow_in_progress` without touching the first.
 */

export interface HostedFlowOptions {
  kind: FlowKind;
  title: string;
  /** Origin of the hosted page: messages from any other origin are ignored, and posts go only there. */
  pageOrigin: string;
  pageUrl: (session: string) => string;
  /** A validated message of this flow's page. */
  onPageMessage: (message: PageMessage) => void;
  /** The user asked to close the dialog. */
  onDismiss: () => void;
}

export interface HostedFlow {
  readonly session: string;
  readonly isOpen: boolean;
  post<T extends keyof HostMessages>(type: T, payload: HostMessages[T]): void;
  /** Removes the dialog and every listener; true only for the call that actually closed it. */
  close(): boolean;
}

let openFlow: HostedFlow | null = null;

/** A 128-bit random nonce, hex: unguessable by another frame, safe in a URL. */
export function createSessionNonce(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}

export function assertCanOpenFlow(): void {
  if (typeof window === 'undefined' || typeof document === 'undefined' || !document.body) {
    throw new BnplSdkError('no_dom', 'a BNPL dialog needs a browser page with a body');
  }
  if (openFlow?.isOpen) {
    throw new BnplSdkError(
      'flow_in_progress',
      'a BNPL or passport dialog is already open; wait for it to close',
    );
  }
}

export function openHostedFlow(options: HostedFlowOptions): HostedFlow {
  assertCanOpenFlow();
  const session = createSessionNonce();
  let open = true;

  const onMessage = (event: MessageEvent) => {
    if (!open || event.origin !== options.pageOrigin) return;
    // The origin alone is not enough: the service's other frames, or the market's own page when the
    // service shares its origin, must not speak for this iframe.
    const frameWindow = dialog.iframe.contentWindow;
    if (frameWindow === null || event.source !== frameWindow) return;
    const message = parsePageMessage(event.data, session);
    if (message === null) return;
    if (message.type === 'page_ready') {
      dialog.setBusy(false);
      flow.post('host_ready', { flow: options.kind });
    }
    if (message.type === 'resize') return dialog.fitContent(message.payload.height);
    options.onPageMessage(message);
  };

  const dialog = openDialog({
    title: options.title,
    src: options.pageUrl(session),
    onDismiss: () => {
      if (open) options.onDismiss();
    },
  });
  // Attached in the same task as the iframe: its page loads asynchronously, so no message is missed.
  window.addEventListener('message', onMessage);

  const flow: HostedFlow = {
    session,
    get isOpen() {
      return open;
    },
    post(type, payload) {
      const target = dialog.iframe.contentWindow;
      if (open && target) target.postMessage(createHostMessage(session, type, payload), options.pageOrigin);
    },
    close() {
      if (!open) return false;
      open = false;
      window.removeEventListener('message', onMessage);
      dialog.destroy();
      if (openFlow === flow) openFlow = null;
      return true;
    },
  };
  openFlow = flow;
  return flow;
}

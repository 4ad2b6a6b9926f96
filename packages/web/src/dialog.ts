/**
 * The modal that holds a hosted page: a native <dialog> opened with showModal() where the browser has
 * it (top layer, the rest of the page inert), with role, aria-modal and a label set explicitly as
 * well. Focus moves in on open and back on close; Escape, the dialog's cancel event and the close
 * button dismiss it; Tab wraps inside it. A click on the backdrop does nothing, so an unfinished
 * payment is never lost to a stray click. Every listener is removed and every node taken out on
 * destroy().
 */

import { frameSandbox } from './frame-sandbox.js';

export interface DialogOptions {
  /** Accessible name of the dialog and title of its iframe. */
  title: string;
  src: string;
  /** The user asked to close (close button, Escape, cancel). The dialog stays until destroy(). */
  onDismiss: () => void;
}

export interface DialogHandle {
  readonly iframe: HTMLIFrameElement;
  /** aria-busy until the page says it is ready. */
  setBusy(busy: boolean): void;
  /**
   * The page's content is `height` CSS pixels tall: the dialog shrinks or grows to it, within its
   * maximum (the iframe scrolls beyond that), so a short step leaves no empty area below it.
   */
  fitContent(height: number): void;
  destroy(): void;
}

let dialogCount = 0;

const DIALOG_STYLE =
  'position:fixed;inset:0;margin:auto;z-index:2147483647;padding:0;border:0;border-radius:12px;' +
  'width:min(480px,calc(100vw - 32px));height:min(720px,calc(100vh - 32px));max-width:none;max-height:none;' +
  'display:flex;flex-direction:column;overflow:hidden;background:#fff;color:#111;' +
  'box-shadow:0 20px 50px rgba(0,0,0,.3)';
const HEADER_STYLE =
  'display:flex;align-items:center;justify-content:space-between;gap:8px;padding:8px 8px 8px 16px;' +
  'border-bottom:1px solid #e5e7eb;font:600 16px/1.4 system-ui,sans-serif';
const TITLE_STYLE = 'margin:0;font:inherit';
const CLOSE_STYLE =
  'font:24px/1 system-ui,sans-serif;background:none;border:0;border-radius:6px;padding:4px 10px;' +
  'cursor:pointer;color:inherit';
const FRAME_STYLE = 'flex:1;width:100%;border:0';
// Until the page says how tall it is, the dialog has its full height; then it fits the content.
const MAX_HEIGHT = 'min(720px,calc(100vh - 32px))';
// ::backdrop cannot be styled inline; this rule lives and dies with the dialog.
const BACKDROP_CSS = 'dialog[data-bnpl-kit]::backdrop{background:rgba(15,23,42,.6)}';

export function openDialog(options: DialogOptions): DialogHandle {
  const doc = document;
  const returnFocusTo = doc.activeElement;
  const titleId = `bnpl-kit-dialog-title-${++dialogCount}`;

  const dialog = doc.createElement('dialog');
  dialog.setAttribute('data-bnpl-kit', '');
  dialog.setAttribute('role', 'dialog');
  dialog.setAttribute('aria-modal', 'true');
  dialog.setAttribute('aria-labelledby', titleId);
  dialog.setAttribute('aria-busy', 'true');
  dialog.style.cssText = DIALOG_STYLE;

  const backdropStyle = doc.createElement('style');
  backdropStyle.textContent = BACKDROP_CSS;

  const header = doc.createElement('div');
  header.style.cssText = HEADER_STYLE;
  const heading = doc.createElement('h2');
  heading.id = titleId;
  heading.textContent = options.title;
  heading.style.cssText = TITLE_STYLE;
  const closeButton = doc.createElement('button');
  closeButton.type = 'button';
  closeButton.setAttribute('aria-label', 'Close');
  closeButton.textContent = '×';
  closeButton.style.cssText = CLOSE_STYLE;
  header.append(heading, closeButton);

  const iframe = doc.createElement('iframe');
  iframe.title = options.title;
  // Sandboxed unless the page shares this page's origin, where a sandbox could not hold (frame-sandbox.ts).
  const sandbox = frameSandbox(options.src, doc.defaultView?.location.origin ?? 'null');
  if (sandbox !== undefined) iframe.setAttribute('sandbox', sandbox);
  iframe.setAttribute('allow', 'payment');
  iframe.referrerPolicy = 'origin';
  iframe.style.cssText = FRAME_STYLE;
  iframe.src = options.src;

  dialog.append(backdropStyle, header, iframe);

  const removers: Array<() => void> = [];
  function listen<K extends keyof DocumentEventMap>(
    target: Document | HTMLElement,
    type: K,
    handler: (event: DocumentEventMap[K]) => void,
    capture = false,
  ) {
    target.addEventListener(type, handler as EventListener, capture);
    removers.push(() => target.removeEventListener(type, handler as EventListener, capture));
  }

  listen(closeButton, 'click', () => options.onDismiss());
  listen(dialog, 'cancel', (event) => {
    // Closing is ours to do, after the callbacks are settled.
    event.preventDefault();
    options.onDismiss();
  });
  listen(
    doc,
    'keydown',
    (event) => {
      if (event.key === 'Escape') {
        event.preventDefault();
        event.stopPropagation();
        options.onDismiss();
      } else if (event.key === 'Tab') {
        // The two focus stops of the host side: the close button and the iframe (its inside is the page's).
        const [first, last] = [closeButton, iframe];
        if (event.shiftKey && doc.activeElement === first) {
          event.preventDefault();
          last.focus();
        } else if (!event.shiftKey && doc.activeElement === last) {
          event.preventDefault();
          first.focus();
        } else if (!dialog.contains(doc.activeElement)) {
          event.preventDefault();
          first.focus();
        }
      }
    },
    true,
  );
  // Where the browser has no inert page behind a modal, focus that escapes is brought back.
  listen(doc, 'focusin', (event) => {
    if (!dialog.contains(event.target as Node | null)) closeButton.focus();
  });

  doc.body.append(dialog);
  if (typeof dialog.showModal === 'function') {
    try {
      dialog.showModal();
    } catch {
      dialog.setAttribute('open', '');
    }
  } else {
    dialog.setAttribute('open', '');
  }
  closeButton.focus();

  let destroyed = false;
  return {
    iframe,
    setBusy(busy) {
      dialog.setAttribute('aria-busy', String(busy));
    },
    fitContent(height) {
      // fit-content, not auto: with inset 0 an auto height would stretch to the viewport.
      dialog.style.height = 'fit-content';
      dialog.style.maxHeight = MAX_HEIGHT;
      // Shrinks (min-height 0) when the content is taller than the dialog may be; the page scrolls.
      iframe.style.flex = '0 1 auto';
      iframe.style.minHeight = '0';
      iframe.style.height = `${height}px`;
    },
    destroy() {
      if (destroyed) return;
      destroyed = true;
      for (const remove of removers.splice(0)) remove();
      if (dialog.open && typeof dialog.close === 'function') dialog.close();
      dialog.remove();
      // Duck-typed: the element may be an SVG element, or come from another realm.
      const target = returnFocusTo as HTMLElement | null;
      if (target?.isConnected && typeof target.focus === 'function') target.focus();
    },
  };
}

/**
 * The `sandbox` attribute of the dialog's iframe. The hosted page needs both `allow-scripts` and
 * `allow-same-origin`: it runs the flow, and it keeps its real origin, which the postMessage checks
 * on both sides and its own calls to the service rely on (an opaque origin would post as "null").
 * With both flags a page of the embedding page's own origin could lift its sandbox itself (it can
 * reach the iframe element), which Chromium warns about on every dialog: for such a page (the
 * reference servers' embedded sandbox, mounted on the shop's origin) the attribute would only
 * pretend, so it is left off. A page of another origin, the real service's, is sandboxed: it cannot
 * navigate the market's page (no `allow-top-navigation`).
 */
export const FRAME_SANDBOX = 'allow-scripts allow-same-origin allow-forms allow-popups';

/** The attribute for a page at `src` framed by a page of `hostOrigin`; undefined: none. */
export function frameSandbox(src: string, hostOrigin: string): string | undefined {
  const pageOrigin = new URL(src, hostOrigin).origin;
  return pageOrigin === hostOrigin ? undefined : FRAME_SANDBOX;
}

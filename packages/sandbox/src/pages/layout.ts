/**
 * The shell every hosted page shares: inline CSS and one inline script (the protocol bridge, the
 * helpers below, then the page's own code), both carrying the response's CSP nonce. Page data goes
 * in a JSON block that the script reads; it is never interpolated into script text.
 */
import { BRIDGE_SCRIPT } from './bridge-script.js';
import { html, jsonForScript, raw, type SafeHtml } from './html.js';
import { PAGE_SESSION_HEADER } from './sessions.js';

const STYLE = `
:root { color-scheme: light; --brand: #0f766e; --brand-dark: #115e59; --ink: #0f172a; --muted: #64748b;
  --line: #e2e8f0; --bg: #f8fafc; --bad: #b91c1c; --good: #15803d; }
* { box-sizing: border-box; }
body { margin: 0; font: 15px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: var(--ink);
  background: var(--bg); }
main { max-width: 520px; margin: 0 auto; padding: 20px 18px 28px; }
.brand { display: flex; align-items: center; gap: 10px; margin-bottom: 16px; }
.logo { width: 34px; height: 34px; border-radius: 9px; background: var(--brand); color: #fff; display: grid;
  place-items: center; font-weight: 700; }
.brand strong { display: block; font-size: 15px; }
.brand span { color: var(--muted); font-size: 13px; }
.sandbox-tag { margin-left: auto; font-size: 11px; text-transform: uppercase; letter-spacing: .06em;
  color: #92400e; background: #fef3c7; border-radius: 999px; padding: 2px 8px; }
h1 { font-size: 20px; margin: 4px 0 12px; }
h2 { font-size: 15px; margin: 0 0 8px; }
.card { background: #fff; border: 1px solid var(--line); border-radius: 12px; padding: 14px 16px; margin: 12px 0; }
.lines { width: 100%; border-collapse: collapse; font-size: 14px; }
.lines td { padding: 4px 0; vertical-align: top; }
.lines td.num { text-align: right; white-space: nowrap; padding-left: 12px; }
.total td { border-top: 1px solid var(--line); padding-top: 8px; font-weight: 600; }
.muted { color: var(--muted); font-size: 13px; }
.offer-choice { display: block; border-top: 1px solid var(--line); padding: 10px 0; cursor: pointer; }
.offer-choice:first-of-type { border-top: 0; }
.offer-choice input { margin: 0 8px 0 0; accent-color: var(--brand); }
.offer-text { display: inline-flex; flex-direction: column; gap: 2px; vertical-align: top; }
.badge.unlocked { align-self: flex-start; }
.plan { display: grid; grid-template-columns: repeat(3, 1fr); gap: 8px; margin-top: 10px; }
.plan div { border: 1px solid var(--line); border-radius: 10px; padding: 8px; text-align: center; }
.plan b { display: block; font-size: 14px; }
.actions { display: flex; gap: 10px; margin-top: 16px; }
button { font: inherit; border-radius: 10px; padding: 10px 16px; border: 1px solid var(--line); background: #fff;
  color: var(--ink); cursor: pointer; }
button.primary { background: var(--brand); border-color: var(--brand); color: #fff; font-weight: 600; flex: 1; }
button.primary:hover { background: var(--brand-dark); }
button:focus-visible { outline: 3px solid #99f6e4; outline-offset: 2px; }
button:disabled { opacity: .6; cursor: default; }
.notice { border-radius: 10px; padding: 10px 12px; margin: 12px 0; font-size: 14px; }
.notice.good { background: #dcfce7; color: var(--good); }
.notice.bad { background: #fee2e2; color: var(--bad); }
.notice.info { background: #e0f2fe; color: #075985; }
.badge { display: inline-block; border-radius: 999px; padding: 1px 8px; font-size: 12px; font-weight: 600;
  background: #e2e8f0; color: #334155; }
.badge.good { background: #dcfce7; color: var(--good); }
.badge.bad { background: #fee2e2; color: var(--bad); }
.orders { list-style: none; margin: 0; padding: 0; }
.orders li { display: flex; align-items: center; gap: 10px; border-top: 1px solid var(--line); padding: 10px 0; }
.orders li:first-child { border-top: 0; }
.orders .what { flex: 1; min-width: 0; }
.orders .what strong { display: block; overflow: hidden; text-overflow: ellipsis; white-space: nowrap; }
.orders button.repay { flex: none; white-space: nowrap; padding: 8px 12px; }
.orders .plan-chosen { display: block; font-size: 13px; margin-top: 2px; }
.spinner { width: 18px; height: 18px; border: 3px solid #ccfbf1; border-top-color: var(--brand); border-radius: 50%;
  display: inline-block; vertical-align: middle; margin-right: 8px; animation: spin 1s linear infinite; }
@keyframes spin { to { transform: rotate(360deg); } }
[hidden] { display: none !important; }
`;

/**
 * Helpers every page script starts with. `framed` is true only inside the SDK's iframe with valid
 * frame parameters; opened top-level the page works without the protocol.
 */
const COMMON_SCRIPT = String.raw`
const data = JSON.parse(document.getElementById('page-data').textContent);
const framed = data.frame !== null && window.parent !== window;
const bridge = framed ? createBridge(data.frame.origin, data.frame.session) : null;
const $ = (id) => document.getElementById(id);
const basePath = location.pathname.replace(/\/+$/, '');
function show(step) {
  for (const el of document.querySelectorAll('[data-step]')) el.hidden = el.dataset.step !== step;
  const focus = document.querySelector('[data-step="' + step + '"] [data-autofocus]');
  // Focus without scrolling to the button: each step opens at its top (the order summary first).
  if (focus) focus.focus({ preventScroll: true });
  window.scrollTo(0, 0);
}
async function callPage(path, method = 'POST') {
  const response = await fetch(basePath + path, {
    method,
    headers: { '${PAGE_SESSION_HEADER}': data.pageSession, accept: 'application/json' },
  });
  const body = await response.json().catch(() => ({}));
  if (!response.ok) throw new Error(body.detail || 'The sandbox answered HTTP ' + response.status);
  return body;
}
// Key presses inside the iframe never reach the SDK, so the page reports Escape itself.
document.addEventListener('keydown', (event) => {
  if (event.key === 'Escape' && bridge) {
    event.preventDefault();
    bridge.close();
  }
});
// The SDK's dialog fits the content's height: a short step (an outcome) leaves no empty area.
if (bridge && typeof ResizeObserver === 'function') {
  const content = document.querySelector('main');
  let reported = 0;
  new ResizeObserver(() => {
    const height = Math.ceil(content.getBoundingClientRect().height);
    if (height > 0 && height !== reported) {
      reported = height;
      bridge.resize(height);
    }
  }).observe(content);
}
for (const button of document.querySelectorAll('[data-close]')) {
  button.hidden = !bridge;
  button.addEventListener('click', () => bridge && bridge.close());
}
`;

export interface PageShell {
  nonce: string;
  title: string;
  /** Shown under the brand: who the user is paying. */
  subtitle: string;
  body: SafeHtml;
  data: Record<string, unknown>;
  /** The page's own browser code (fixed text, never data). */
  script: string;
}

export function renderPage(page: PageShell): string {
  return html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${page.title}</title>
<link rel="icon" href="data:,">
<style nonce="${page.nonce}">${raw(STYLE)}</style>
</head>
<body>
<main>
<header class="brand">
  <div class="logo" aria-hidden="true">B</div>
  <div><strong>Sandbox BNPL</strong><span>${page.subtitle}</span></div>
  <span class="sandbox-tag">Sandbox</span>
</header>
${page.body}
</main>
<script type="application/json" id="page-data">${jsonForScript(page.data)}</script>
<script nonce="${page.nonce}">
"use strict";
(() => {
${raw(BRIDGE_SCRIPT)}
${raw(COMMON_SCRIPT)}
${raw(page.script)}
})();
</script>
</body>
</html>
`.value;
}

/**
 * The console's Certification page (`/sandbox/console/certification`): pick a mode, run certify
 * against the market the sandbox organisation points at, watch the checks arrive, open past runs'
 * reports. Same shell as the console (page.ts): fixed markup, the console's CSS, an inline script.
 */
import { html, jsonForScript, raw } from '../pages/html.js';
import { CERTIFICATION_SCRIPT } from './certification-script.js';
import { CONSOLE_STYLE } from './page.js';

const EXTRA_STYLE = `
#checks li { list-style: none; padding: 2px 0; border-bottom: 1px solid var(--line); }
#checks { margin: 0; padding: 0; max-height: 420px; overflow: auto; }
#verdict { font-size: 15px; font-weight: 700; }
`;

export function renderCertificationPage(page: { nonce: string; data: Record<string, unknown> }): string {
  return html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Certification · Sandbox console · bnpl-kit</title>
<link rel="icon" href="data:,">
<style nonce="${page.nonce}">${raw(CONSOLE_STYLE)}${raw(EXTRA_STYLE)}</style>
</head>
<body>
<header>
  <h1>Certification</h1>
  <span class="meta" id="target"></span>
  <span class="spacer"></span>
  <nav aria-label="Pages"><a href="../console">Console</a></nav>
</header>
<main>
<section id="token-section" hidden aria-label="Admin token">
  <h2>Admin token</h2>
  <p class="muted">This sandbox was started with an admin token. It is kept in this tab only (sessionStorage).</p>
  <form id="token-form"><input id="token-input" type="password" autocomplete="off" aria-label="Admin token"> <button class="primary" type="submit">Use token</button></form>
</section>
<section id="unavailable" hidden aria-label="Not available"><p class="empty" id="unavailable-reason"></p></section>
<section id="run-section" hidden aria-label="Run">
  <h2>Run certify</h2>
  <form class="fault" id="run-form">
    <label>Mode <select id="mode"></select></label>
    <button class="primary" type="submit" id="run">Run certification</button>
  </form>
  <p class="muted" id="notice"></p>
</section>
<section id="live-section" hidden aria-label="Checks">
  <h2>Run <code id="run-id"></code> <span class="count" id="progress"></span> <span id="verdict"></span></h2>
  <p class="muted" id="run-error"></p>
  <ul id="checks"></ul>
</section>
<section id="runs-section" aria-label="Past runs">
  <h2>Past runs <span class="count" id="runs-count"></span></h2>
  <table><thead><tr><th>Run</th><th>Mode</th><th>Started</th><th>Verdict</th><th>Checks</th><th></th></tr></thead><tbody id="runs"></tbody></table>
  <p class="empty" id="runs-empty">No run yet.</p>
</section>
</main>
<div id="message" role="status" aria-live="polite"></div>
<script type="application/json" id="console-data">${jsonForScript(page.data)}</script>
<script nonce="${page.nonce}">${raw(CERTIFICATION_SCRIPT)}</script>
</body>
</html>
`.value;
}

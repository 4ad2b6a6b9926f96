/**
 * The console's HTML: fixed markup, inline CSS and the inline script (console-script.ts), both with
 * the response's nonce. Its only data is a JSON block of fixed facts (operation names); everything
 * about orders and deliveries arrives later through the admin API and is put in the page as text.
 */
import { html, jsonForScript, raw } from '../pages/html.js';
import { CONSOLE_SCRIPT } from './console-script.js';

/** Shared by the console's pages (certification-page.ts). */
export const CONSOLE_STYLE = `
:root { color-scheme: light; --ink: #0f172a; --muted: #64748b; --line: #e2e8f0; --bg: #f8fafc; --brand: #0f766e;
  --good: #15803d; --bad: #b91c1c; --warn: #92400e; }
* { box-sizing: border-box; }
body { margin: 0; font: 14px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: var(--ink); background: var(--bg); }
header { display: flex; align-items: center; gap: 12px; padding: 10px 20px; background: #fff; border-bottom: 1px solid var(--line);
  position: sticky; top: 0; z-index: 1; flex-wrap: wrap; }
header h1 { font-size: 17px; margin: 0; }
/* The nav's targets land below the sticky header (its height is measured by the script). */
section[id] { scroll-margin-top: calc(var(--header-height, 64px) + 8px); }
td.nowrap { overflow-wrap: normal; white-space: nowrap; }
header .meta { color: var(--muted); font-size: 12px; overflow-wrap: anywhere; }
.spacer { flex: 1; }
/* The links wrap to a line of their own on a narrow screen rather than run off its edge. */
nav { display: flex; flex-wrap: wrap; column-gap: 10px; }
nav a { color: var(--brand); font-size: 13px; }
main { padding: 14px 20px 40px; max-width: 1400px; margin: 0 auto; }
@media (max-width: 600px) { main { padding: 10px 10px 40px; } header { padding: 10px; } }
/* A table wider than a phone scrolls inside its section; the page itself never scrolls sideways. */
section { background: #fff; border: 1px solid var(--line); border-radius: 10px; padding: 12px 14px; margin: 14px 0;
  overflow-x: auto; min-width: 0; }
h2 { font-size: 15px; margin: 0 0 8px; display: flex; gap: 8px; align-items: baseline; }
h2 .count { color: var(--muted); font-weight: 400; font-size: 13px; }
table { width: 100%; border-collapse: collapse; font-size: 13px; }
th { text-align: left; color: var(--muted); font-weight: 600; border-bottom: 1px solid var(--line); padding: 4px 6px; }
td { border-bottom: 1px solid var(--line); padding: 6px; vertical-align: top; overflow-wrap: anywhere; }
tr:last-child td { border-bottom: 0; }
code, pre { font: 12px/1.4 ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; }
pre { background: #f1f5f9; border-radius: 6px; padding: 8px; margin: 4px 0; white-space: pre-wrap; overflow-wrap: anywhere; max-height: 260px; overflow: auto; }
button { font: inherit; font-size: 12px; border-radius: 7px; padding: 3px 9px; border: 1px solid var(--line); background: #fff; cursor: pointer; margin: 1px; }
button:hover:not(:disabled) { border-color: var(--brand); }
button:disabled { opacity: .45; cursor: default; }
button.primary { background: var(--brand); color: #fff; border-color: var(--brand); }
/* A status is one word: never broken inside it (cells break long IDs anywhere, which badges inherit). */
.badge { display: inline-block; border-radius: 999px; padding: 0 8px; font-size: 11px; font-weight: 700; background: #e2e8f0; color: #334155;
  white-space: nowrap; overflow-wrap: normal; }
.badge[data-tone="good"] { background: #dcfce7; color: var(--good); }
.badge[data-tone="bad"] { background: #fee2e2; color: var(--bad); }
.badge[data-tone="warn"] { background: #fef3c7; color: var(--warn); }
.history { list-style: none; margin: 0; padding: 0; font-size: 12px; color: var(--muted); }
.history b { color: var(--ink); font-weight: 600; }
details.delivery { border-bottom: 1px solid var(--line); padding: 6px 0; }
details.delivery summary { cursor: pointer; display: flex; gap: 8px; align-items: center; flex-wrap: wrap; }
details.delivery summary .url { color: var(--muted); font-size: 12px; overflow-wrap: anywhere; }
.attempt { border-left: 3px solid var(--line); padding-left: 10px; margin: 8px 0 8px 6px; }
.attempt h4 { margin: 0; font-size: 12px; }
.grid2 { display: grid; grid-template-columns: minmax(0, 1fr) minmax(0, 1fr); gap: 10px; }
@media (max-width: 900px) { .grid2 { grid-template-columns: minmax(0, 1fr); } }
.muted { color: var(--muted); font-size: 12px; }
.empty { color: var(--muted); font-size: 13px; margin: 4px 0; }
form.fault { display: flex; gap: 8px; flex-wrap: wrap; align-items: end; }
form.fault label { display: flex; flex-direction: column; font-size: 12px; color: var(--muted); gap: 2px; }
input, select { font: inherit; font-size: 13px; padding: 3px 6px; border: 1px solid var(--line); border-radius: 6px; }
#message:empty { display: none; }
#message { position: fixed; right: 16px; bottom: 16px; max-width: min(420px, calc(100vw - 32px)); border-radius: 10px; padding: 10px 14px; background: #e0f2fe; color: #075985; box-shadow: 0 4px 16px #0002; }
#message[data-tone="bad"] { background: #fee2e2; color: var(--bad); }
#message[data-tone="good"] { background: #dcfce7; color: var(--good); }
[hidden] { display: none !important; }
`;

export function renderConsole(page: { nonce: string; data: Record<string, unknown> }): string {
  return html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Sandbox console · bnpl-kit</title>
<link rel="icon" href="data:,">
<style nonce="${page.nonce}">${raw(CONSOLE_STYLE)}</style>
</head>
<body>
<header>
  <h1>Sandbox console</h1>
  <span class="meta" id="entity"></span>
  <span class="spacer"></span>
  <nav aria-label="Sections"><a href="#orders-section">Orders</a><a href="#deliveries-section">Webhooks</a><a href="#disbursements-section">Disbursements</a><a href="#faults-section">Faults</a><a href="#organizations-section">Organisations</a><a href="console/certification">Certification</a></nav>
  <label class="muted"><input type="checkbox" id="auto-refresh" checked> live</label>
  <button id="refresh">Refresh</button>
  <span class="muted" id="refreshed"></span>
</header>
<main>
<section id="token-section" hidden aria-label="Admin token">
  <h2>Admin token</h2>
  <p class="muted">This sandbox was started with an admin token. It is kept in this tab only (sessionStorage).</p>
  <form id="token-form"><input id="token-input" type="password" autocomplete="off" aria-label="Admin token"> <button class="primary" type="submit">Use token</button></form>
</section>
<section id="orders-section" aria-label="Orders">
  <h2>Orders <span class="count" id="orders-count"></span></h2>
  <p class="muted">Approve or reject a PENDING order, confirm readiness (DISBURSING) and pay (PAID): what the provider does; each sends the webhooks it would.</p>
  <table><thead><tr><th>Order</th><th>Amount</th><th>Status</th><th>History</th><th>Provider</th></tr></thead><tbody id="orders"></tbody></table>
  <p class="empty" id="orders-empty">No orders yet.</p>
</section>
<section id="deliveries-section" aria-label="Webhook deliveries">
  <h2>Webhook deliveries <span class="count" id="deliveries-count"></span></h2>
  <p class="muted" id="schedule"></p>
  <div id="deliveries"></div>
  <p class="empty" id="deliveries-empty">No webhook sent yet.</p>
</section>
<div class="grid2">
<section id="disbursements-section" aria-label="Disbursements">
  <h2>Disbursements <span class="count" id="disbursements-count"></span></h2>
  <table><thead><tr><th>ID</th><th>Order</th><th>Amount</th><th class="nowrap">Source</th><th>Invoice</th><th>At</th></tr></thead><tbody id="disbursements"></tbody></table>
  <p class="empty" id="disbursements-empty">No disbursement yet.</p>
</section>
<section id="faults-section" aria-label="Fault injection">
  <h2>Fault injection <span class="count" id="faults-count"></span></h2>
  <form class="fault" id="fault-form">
    <label>Target <select id="fault-target"><option value="route">service route</option><option value="webhook">webhook</option></select></label>
    <label data-for="route">Operation <select id="fault-operation"></select></label>
    <label data-for="route">Action <select id="fault-route-action"><option>error</option><option>timeout</option><option>malformed</option></select></label>
    <label data-for="route">Status <input id="fault-status" type="number" min="400" max="599" value="500"></label>
    <label data-for="webhook" hidden>Action <select id="fault-webhook-action"><option>drop</option><option>duplicate</option><option>delay</option><option>reorder</option></select></label>
    <label data-for="webhook" hidden>Delay ms <input id="fault-delay" type="number" min="0" value="1000"></label>
    <label data-for="webhook" hidden>Event type <input id="fault-event-type" placeholder="any"></label>
    <label>Times <input id="fault-times" type="number" min="1" max="1000" value="1"></label>
    <button class="primary" type="submit">Inject</button>
    <button type="button" id="faults-clear">Clear all</button>
  </form>
  <div id="faults"></div>
</section>
</div>
<section id="organizations-section" aria-label="Organisations">
  <h2>Organisations <span class="count" id="organizations-count"></span></h2>
  <table><thead><tr><th>Organisation</th><th>Mode</th><th>URLs</th><th>Basic profile</th><th>Offers</th><th>API keys</th></tr></thead><tbody id="organizations"></tbody></table>
</section>
</main>
<div id="message" role="status" aria-live="polite"></div>
<script type="application/json" id="console-data">${jsonForScript(page.data)}</script>
<script nonce="${page.nonce}">${raw(CONSOLE_SCRIPT)}</script>
</body>
</html>
`.value;
}

/**
 * The storefront's HTML: products rendered on the server, the rest (cart, orders, the BNPL flow) by
 * the browser bundle. The configuration the browser needs (never the market API token) travels in a
 * JSON block. CSP: scripts from this origin only; frames and fetches to the service, too.
 */

import escapeHtml from 'escape-html';
import { PRODUCTS } from './catalogue.js';
import { formatVnd } from './format.js';

function jsonForScript(data: unknown): string {
  return JSON.stringify(data)
    .replace(/</g, '\\u003c')
    .replace(/>/g, '\\u003e')
    .replace(/&/g, '\\u0026')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
}

export interface BrowserConfig {
  appName: string;
  apiKey: string;
  env: 'sandbox' | 'production';
  serviceUrl: string;
  mode: 'basic' | 'data-sharing';
  marketId: string;
  marketPrefix: string;
}

/** The service origin for CSP: the shop's own when the service URL is a path. */
export function serviceSource(serviceUrl: string): string {
  return serviceUrl.startsWith('/') ? "'self'" : new URL(serviceUrl).origin;
}

export function storefrontCsp(config: BrowserConfig): string {
  const service = serviceSource(config.serviceUrl);
  return [
    "default-src 'self'",
    "script-src 'self'",
    // The SDK styles its dialog with a <style> element for ::backdrop, and this page has one too.
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data:",
    `connect-src 'self' ${service}`,
    `frame-src ${service}`,
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; ');
}

const STYLE = `
:root { --ink: #111827; --muted: #6b7280; --line: #e5e7eb; --bg: #f3f4f6; --brand: #4338ca; --brand-dark: #3730a3;
  --good: #15803d; --bad: #b91c1c; }
* { box-sizing: border-box; }
body { margin: 0; font: 15px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: var(--ink); background: var(--bg); }
.topbar { display: flex; align-items: center; gap: 14px; padding: 12px 24px; background: #fff; border-bottom: 1px solid var(--line); flex-wrap: wrap; }
.logo { font-weight: 800; font-size: 19px; display: flex; align-items: center; gap: 8px; }
.logo i { width: 30px; height: 30px; border-radius: 8px; background: var(--brand); color: #fff; display: grid; place-items: center; font-style: normal; }
.tag { font-size: 12px; color: #92400e; background: #fef3c7; border-radius: 999px; padding: 2px 10px; }
.spacer { flex: 1; }
select, button { font: inherit; }
select { padding: 6px 8px; border-radius: 8px; border: 1px solid var(--line); background: #fff; }
button { border-radius: 10px; padding: 8px 14px; border: 1px solid var(--line); background: #fff; color: var(--ink); cursor: pointer; }
button.primary { background: var(--brand); border-color: var(--brand); color: #fff; font-weight: 600; }
button.primary:hover:not(:disabled) { background: var(--brand-dark); }
button:disabled { opacity: .55; cursor: default; }
button:focus-visible, select:focus-visible { outline: 3px solid #c7d2fe; outline-offset: 2px; }
.layout { display: grid; grid-template-columns: minmax(0, 1fr) 360px; gap: 24px; padding: 24px; max-width: 1180px; margin: 0 auto; }
@media (max-width: 860px) { .layout { grid-template-columns: 1fr; } }
h1 { font-size: 22px; margin: 0 0 14px; }
h2 { font-size: 16px; margin: 0 0 10px; }
.grid { display: grid; grid-template-columns: repeat(auto-fill, minmax(165px, 1fr)); gap: 16px; }
.product { background: #fff; border: 1px solid var(--line); border-radius: 14px; padding: 12px; display: flex; flex-direction: column; gap: 6px; }
.product img { width: 100%; aspect-ratio: 1; border-radius: 10px; }
.product .price { font-weight: 700; }
.product p { margin: 0; color: var(--muted); font-size: 13px; flex: 1; }
.panel { background: #fff; border: 1px solid var(--line); border-radius: 14px; padding: 16px; margin-bottom: 16px; }
.panel ul { list-style: none; margin: 0; padding: 0; }
.cart-line, .order { display: flex; align-items: center; gap: 8px; padding: 8px 0; border-top: 1px solid var(--line); }
.cart-line:first-child, .order:first-child { border-top: 0; }
.cart-line .name, .order .what { flex: 1; min-width: 0; }
.order .what span { display: block; color: var(--muted); font-size: 12px; }
.order .what .next { color: #312e81; }
.order button.provider { margin-top: 4px; padding: 3px 10px; font-size: 12px; }
.topbar a { color: var(--brand); font-size: 14px; }
.qty { display: inline-flex; align-items: center; gap: 6px; }
.qty button { padding: 0 8px; border-radius: 6px; }
.total { display: flex; justify-content: space-between; border-top: 1px solid var(--line); margin-top: 8px; padding-top: 10px; font-weight: 700; }
#pay-later { width: 100%; margin-top: 12px; padding: 11px; }
.hint { color: var(--muted); font-size: 13px; margin: 8px 0 0; }
.empty { color: var(--muted); font-size: 14px; }
.status { font-size: 12px; font-weight: 700; border-radius: 999px; padding: 2px 9px; background: #e5e7eb; color: #374151; white-space: nowrap; }
.status[data-status="APPROVED"], .status[data-status="DISBURSING"], .status[data-status="PAID"] { background: #dcfce7; color: var(--good); }
.status[data-status="CANCELED"], .status[data-status="CANCELING"] { background: #fee2e2; color: var(--bad); }
#message:empty { display: none; }
#message { border-radius: 12px; padding: 10px 14px; margin-bottom: 16px; background: #e0e7ff; color: #312e81; }
#message[data-tone="good"] { background: #dcfce7; color: var(--good); }
#message[data-tone="bad"] { background: #fee2e2; color: var(--bad); }
footer { text-align: center; color: var(--muted); font-size: 13px; padding: 8px 24px 32px; }
`;

/** The sandbox console, a tab away, when the service is the sandbox on this origin. */
function consoleLink(config: BrowserConfig): string {
  if (config.env !== 'sandbox' || !config.serviceUrl.startsWith('/')) return '';
  const href = `${config.serviceUrl}/sandbox/console`;
  return `<a id="sandbox-console" href="${escapeHtml(href)}" target="_blank" rel="noopener">Sandbox console</a>`;
}

export function renderStorefront(config: BrowserConfig): string {
  const products = PRODUCTS.map(
    (p) => `<article class="product" id="product-${escapeHtml(p.id)}">
  <img src="/assets/products/${escapeHtml(p.id)}.svg" alt="">
  <strong>${escapeHtml(p.name)}</strong>
  <p>${escapeHtml(p.description)}</p>
  <div class="price">${escapeHtml(formatVnd(p.price))}</div>
  <button data-add="${escapeHtml(p.id)}">Add to cart</button>
</article>`,
  ).join('\n');
  const modeLabel = config.mode === 'data-sharing' ? 'data-sharing mode' : 'basic mode';
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(config.appName)}</title>
<link rel="icon" href="data:,">
<style>${STYLE}</style>
</head>
<body>
<header class="topbar">
  <div class="logo"><i aria-hidden="true">D</i>${escapeHtml(config.appName)}</div>
  <span class="tag">${escapeHtml(config.env)} · ${escapeHtml(modeLabel)}</span>
  <span class="spacer"></span>
  <label>Signed in as <select id="user-select" aria-label="Demo user"></select></label>
  <button id="passport-button" disabled>Pay-later account</button>
${consoleLink(config)}
</header>
<main class="layout">
  <section aria-label="Products">
    <h1>Today's picks</h1>
    <div class="grid">
${products}
    </div>
  </section>
  <aside>
    <div id="message" role="status" aria-live="polite"></div>
    <section class="panel" aria-label="Cart">
      <h2>Cart</h2>
      <ul id="cart-lines"></ul>
      <p class="empty" id="cart-empty">Your cart is empty.</p>
      <div class="total"><span>Total</span><span id="cart-total">0 VND</span></div>
      <button class="primary" id="pay-later" disabled>Pay later</button>
      <p class="hint" id="availability">Pay in 3 interest-free instalments.</p>
    </section>
    <section class="panel" aria-label="Your orders">
      <h2>Your orders</h2>
      <ul id="orders"></ul>
      <p class="empty" id="orders-empty">No orders yet.</p>
    </section>
  </aside>
</main>
<footer>A demo shop of bnpl-kit on the sandbox BNPL service: no real money moves.</footer>
<script type="application/json" id="shop-config">${jsonForScript(config)}</script>
<script type="module" src="/assets/shop.js"></script>
</body>
</html>
`;
}

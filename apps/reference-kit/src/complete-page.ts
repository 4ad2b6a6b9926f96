/**
 * The page the BNPL provider sends a person back to (`/bnpl/complete`, the default callback URL in
 * sandbox mode) when the flow ran outside the web SDK: the order's stored status in words, and the
 * way back to the shop. While the status can still move, the page reloads itself every few seconds
 * (a meta refresh: no script at all, so its CSP allows none). Everything shown is escaped.
 */
import { randomBytes } from 'node:crypto';

/** True when the client prefers a page: browsers list text/html; curl's `*\/*` and JSON clients do not. */
export function wantsHtml(accept: string): boolean {
  return /(^|,)\s*text\/html\b/i.test(accept);
}

const ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};
const escapeHtml = (value: string) => value.replace(/[&<>"']/g, (c) => ESCAPES[c]!);

const WORDS: Record<string, [title: string, text: string]> = {
  PENDING: ['Waiting for the decision', 'The provider has not decided yet. This page updates by itself.'],
  APPROVED: ['Approved', 'You pay later. The provider pays the shop once the order is ready to pay out.'],
  DISBURSING: ['Approved, paying out', 'The order is ready and the provider is paying the shop.'],
  PAID: ['Paid', 'The provider paid the shop. Your instalments are in your pay-later account.'],
  CANCELING: ['Being canceled', 'The order is being canceled. Nothing more will be charged.'],
  CANCELED: ['Canceled', 'Pay later was declined or canceled. Nothing was charged.'],
};
const FINAL = new Set(['PAID', 'CANCELED']);

export function completePage(input: {
  orderId: string;
  status: string | undefined;
  shopUrl: string | undefined;
}): Response {
  const nonce = randomBytes(16).toString('base64url');
  const known = input.status !== undefined;
  const [title, text] = known
    ? (WORDS[input.status!] ?? [input.status!, 'The order has this status at the shop.'])
    : ['Order not found', 'The shop has no order with this number.'];
  const refresh = known && !FINAL.has(input.status!) ? '<meta http-equiv="refresh" content="3">' : '';
  const back = input.shopUrl ? `<p><a href="${escapeHtml(input.shopUrl)}">Back to the shop</a></p>` : '';
  const body = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
${refresh}
<title>${escapeHtml(title)}</title>
<link rel="icon" href="data:,">
<style nonce="${nonce}">
body { margin: 0; font: 16px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: #111827; background: #f3f4f6; }
main { max-width: 460px; margin: 12vh auto; background: #fff; border: 1px solid #e5e7eb; border-radius: 14px; padding: 24px; }
h1 { font-size: 21px; margin: 0 0 8px; }
.status { display: inline-block; font-size: 12px; font-weight: 700; border-radius: 999px; padding: 2px 9px; background: #e5e7eb; }
code { font-size: 13px; overflow-wrap: anywhere; }
a { color: #4338ca; font-weight: 600; }
</style>
</head>
<body>
<main>
<h1 id="title">${escapeHtml(title)}</h1>
${known ? `<p><span class="status" id="status">${escapeHtml(input.status!)}</span></p>` : ''}
<p id="text">${escapeHtml(text)}</p>
${input.orderId ? `<p>Order <code id="order-id">${escapeHtml(input.orderId)}</code></p>` : ''}
${back}
</main>
</body>
</html>
`;
  return new Response(body, {
    status: known ? 200 : 404,
    headers: {
      'content-type': 'text/html; charset=utf-8',
      'content-security-policy': `default-src 'none'; style-src 'nonce-${nonce}'; img-src data:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'`,
      'cache-control': 'no-store',
      'x-content-type-options': 'nosniff',
      'referrer-policy': 'no-referrer',
    },
  });
}

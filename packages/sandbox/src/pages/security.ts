/**
 * The hosted pages' response headers. A strict Content-Security-Policy: nothing loads from anywhere
 * (no external assets exist), inline script and style run only with this response's nonce, fetches
 * go to the page's own origin, and only the market's origin (the `origin` parameter, already
 * validated) may frame the page; without one the page is top-level only.
 */
import { base64UrlEncode } from '@bnpl-kit/core/wire';

export function createNonce(): string {
  return base64UrlEncode(crypto.getRandomValues(new Uint8Array(18)));
}

export function contentSecurityPolicy(nonce: string, frameAncestor: string | undefined): string {
  return [
    "default-src 'none'",
    `script-src 'nonce-${nonce}'`,
    `style-src 'nonce-${nonce}'`,
    'img-src data:',
    "connect-src 'self'",
    "form-action 'none'",
    "base-uri 'none'",
    `frame-ancestors ${frameAncestor ?? "'none'"}`,
  ].join('; ');
}

export function htmlResponse(
  body: string,
  status: number,
  nonce: string,
  frameAncestor: string | undefined,
): Response {
  return new Response(body, {
    status,
    headers: {
      'content-type': 'text/html; charset=utf-8',
      'content-security-policy': contentSecurityPolicy(nonce, frameAncestor),
      'cache-control': 'no-store',
      'referrer-policy': 'no-referrer',
      'x-content-type-options': 'nosniff',
      'cross-origin-opener-policy': 'same-origin',
    },
  });
}

export function pageJson(body: unknown, status = 200): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: {
      'content-type': 'application/json',
      'cache-control': 'no-store',
      'x-content-type-options': 'nosniff',
    },
  });
}

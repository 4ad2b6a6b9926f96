/**
 * The error catalogue served by the server itself: `GET /errors` lists every problem code and
 * `GET /errors/<code>` shows one entry (JSON for scripts, a page for a browser), from the same
 * `ERROR_CATALOGUE` docs/errors.md is generated from. A problem's `type` names the published entry;
 * this is the same entry, reachable from a running server without leaving it.
 */
import { ERROR_CATALOGUE, ERROR_CODES, problemTypeOf } from '@bnpl-kit/core/wire';
import { wantsHtml } from './complete-page.js';
import type { OwnRoutes } from './own-routes.js';

export const ERRORS_PATH = '/errors';

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' };
const escapeHtml = (value: string) => value.replace(/[&<>"]/g, (c) => ESCAPES[c]!);
/** The catalogue's `code` spans become <code>. */
const prose = (value: string) => escapeHtml(value).replace(/`([^`]+)`/g, '<code>$1</code>');

const HEADERS = { 'cache-control': 'public, max-age=3600' };

function entryOf(code: (typeof ERROR_CODES)[number]) {
  const entry = ERROR_CATALOGUE[code];
  return { code, ...entry, type: problemTypeOf(code) };
}

function page(title: string, body: string): Response {
  const html = `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title></head>
<body>
${body}
</body>
</html>
`;
  return new Response(html, {
    headers: {
      ...HEADERS,
      'content-type': 'text/html; charset=utf-8',
      'content-security-policy': "default-src 'none'",
    },
  });
}

function entryHtml(code: (typeof ERROR_CODES)[number]): string {
  const entry = entryOf(code);
  return `<section id="${code}">
<h2>${code}</h2>
<p><strong>${entry.status}</strong> · ${escapeHtml(entry.title)} · ${entry.retryable ? 'retryable' : 'not retryable'}</p>
<p><strong>When:</strong> ${prose(entry.when)}</p>
<p><strong>What to do:</strong> ${prose(entry.action)}</p>
</section>`;
}

export function errorCatalogueRoutes(): OwnRoutes {
  const routes: OwnRoutes = {
    [ERRORS_PATH]: (_url, accept) =>
      wantsHtml(accept)
        ? page('Error catalogue', `<h1>Error catalogue</h1>\n${ERROR_CODES.map(entryHtml).join('\n')}`)
        : Response.json({ errors: ERROR_CODES.map(entryOf) }, { headers: HEADERS }),
  };
  for (const code of ERROR_CODES) {
    routes[`${ERRORS_PATH}/${code}`] = (_url, accept) =>
      wantsHtml(accept) ? page(code, entryHtml(code)) : Response.json(entryOf(code), { headers: HEADERS });
  }
  return routes;
}

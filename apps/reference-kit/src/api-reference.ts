/**
 * `/openapi.json` and a human-readable API reference at `/docs`, rendered in the browser by
 * Swagger UI from the npm package `swagger-ui-dist`, whose files this server serves itself: no CDN
 * at run time, so the page works offline and behind a strict firewall. The document is the kit's
 * generated one for this server's mode (`@bnpl-kit/core/openapi`, WIRE §5).
 */
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { OpenApiDocument } from '@bnpl-kit/core/openapi';
import type { OwnRoutes } from './own-routes.js';

export const OPENAPI_PATH = '/openapi.json';
export const API_REFERENCE_PATH = '/docs';

const ASSETS: Record<string, string> = {
  'swagger-ui.css': 'text/css; charset=utf-8',
  'swagger-ui-bundle.js': 'text/javascript; charset=utf-8',
};

const PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>API reference</title>
<link rel="stylesheet" href="${API_REFERENCE_PATH}/swagger-ui.css">
</head>
<body>
<div id="reference"></div>
<script src="${API_REFERENCE_PATH}/swagger-ui-bundle.js"></script>
<script src="${API_REFERENCE_PATH}/init.js"></script>
</body>
</html>
`;

// A separate file rather than an inline script, so a Content-Security-Policy of 'self' allows it.
const INIT = `window.ui = SwaggerUIBundle({ url: ${JSON.stringify(OPENAPI_PATH)}, dom_id: '#reference', deepLinking: true });\n`;

const assetDir = dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));

/**
 * `document` is called on the first request for it, not at start-up: generating the OpenAPI
 * document from the codecs is work a server that is never asked for it should not pay for.
 */
export function apiReferenceRoutes(document: () => OpenApiDocument | Promise<OpenApiDocument>): OwnRoutes {
  const cached = new Map<string, Promise<string>>();
  const asset = (name: string, type: string) => async () => {
    let text = cached.get(name);
    if (!text) {
      text = readFile(join(assetDir, name), 'utf8');
      cached.set(name, text);
    }
    return new Response(await text, {
      headers: { 'content-type': type, 'cache-control': 'public, max-age=3600' },
    });
  };
  let body: Promise<string> | undefined;
  const routes: OwnRoutes = {
    async [OPENAPI_PATH]() {
      body ??= Promise.resolve(document()).then((doc) => JSON.stringify(doc));
      return new Response(await body, { headers: { 'content-type': 'application/json' } });
    },
    [API_REFERENCE_PATH]: () =>
      new Response(PAGE, { headers: { 'content-type': 'text/html; charset=utf-8' } }),
    [`${API_REFERENCE_PATH}/init.js`]: () =>
      new Response(INIT, { headers: { 'content-type': 'text/javascript; charset=utf-8' } }),
  };
  for (const [name, type] of Object.entries(ASSETS))
    routes[`${API_REFERENCE_PATH}/${name}`] = asset(name, type);
  return routes;
}

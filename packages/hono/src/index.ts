/**
 * `@bnpl-kit/hono`: mounts the market handler on Hono by handing `c.req.raw` to core unchanged
 * (ARCHITECTURE habit 3); Hono already speaks Request/Response, so there is nothing to translate.
 *
 *   app.route('/bnpl', createBnplRouter(market)); // serves /bnpl/v1/…, everything else falls through
 */
import { type Market, markBodyNotRaw } from '@bnpl-kit/core';
import { type Context, Hono } from 'hono';
import { basePath } from 'hono/route';

export const frameworkName = 'hono';

/** Shown in the `payload_not_raw` problem when a middleware parsed the webhook body first. */
export const RAW_BODY_HELP =
  'Hono: mount createBnplRouter(market) before middleware that parses the body, ' +
  'or read it with c.req.text()/c.req.arrayBuffer() there (Hono then keeps the raw bytes).';

/** The raw request; if a middleware already read the body, rebuilt from what Hono cached. */
async function rawRequest(c: Context): Promise<Request> {
  const raw = c.req.raw;
  if (!raw.bodyUsed) return raw;
  const cache = c.req.bodyCache;
  const kept = cache.arrayBuffer ?? cache.blob ?? cache.text;
  const body = kept ? await kept : cache.json ? JSON.stringify(await cache.json) : null;
  const request = new Request(raw.url, {
    method: raw.method,
    headers: raw.headers,
    body,
    signal: raw.signal,
  });
  return kept ? request : markBodyNotRaw(request, RAW_BODY_HELP);
}

export function createBnplRouter(market: Market): Hono {
  const app = new Hono();
  app.all('*', async (c, next) => {
    // Where `app.route()` mounted us; the market routes on the path below it.
    const mountedAt = basePath(c).replace(/\/+$/, '');
    if (!market.ownsPath(c.req.path.slice(mountedAt.length) || '/')) return next();
    return market.handle(await rawRequest(c), { basePath: mountedAt });
  });
  return app;
}

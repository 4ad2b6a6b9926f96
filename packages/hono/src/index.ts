/**
 * `@bnpl-kit/hono`: mounts the market handler on Hono by handing `c.req.raw` to core unchanged
 * (adapters only translate, docs/architecture.md); Hono already speaks Request/Response, so there
 * is nothing to translate.
 *
 *   app.route('/bnpl', createBnplRouter(market)); // serves /bnpl/v1/…, everything else falls through
 */
import type { Market } from '@bnpl-kit/core';
import {
  answerToResponse,
  kitErrorOfFramework,
  markBodyNotRaw,
  problemAnswer,
} from '@bnpl-kit/core/unstable-internals';
import { type Context, type ErrorHandler, Hono } from 'hono';
import { basePath, baseRoutePath } from 'hono/route';
import { nodeOutgoing, untouchedIncoming, withClientAddress, withNodeReaders } from './node-body.js';

export const frameworkName = 'hono';

/** Shown in the `payload_not_raw` problem when a middleware parsed the webhook body first. */
export const RAW_BODY_HELP =
  'Hono: mount createBnplRouter(market) before middleware that parses the body, ' +
  'or read it with c.req.text()/c.req.arrayBuffer() there (Hono then keeps the raw bytes).';

/** Where `app.route()` mounted us, without a trailing slash. */
function mountedAt(c: Context): string {
  // What `basePath` returns unless the mount path has parameters (`/:tenant`), which only it
  // resolves; `basePath` is the slower of the two (bench/profile-adapters.ts).
  const registered = baseRoutePath(c);
  return (/[:*]/.test(registered) ? basePath(c) : registered).replace(/\/+$/, '');
}

/** The raw request; if a middleware already read the body, rebuilt from what Hono cached. */
async function rawRequest(c: Context): Promise<Request> {
  const raw = c.req.raw;
  // GET and HEAD have no body (and asking @hono/node-server's lazy Request builds a real one).
  if (raw.method === 'GET' || raw.method === 'HEAD') return raw;
  const cache = c.req.bodyCache;
  // On Node, untouched: read the bytes from the Node request (asking `bodyUsed` would already
  // build the full Request this avoids).
  const incoming = untouchedIncoming(c);
  if (incoming && Object.keys(cache).length === 0) return withNodeReaders(raw, incoming, nodeOutgoing(c));
  if (!raw.bodyUsed) return raw;
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
    // The market routes on the path below where it is mounted.
    const base = mountedAt(c);
    if (!market.ownsPath(c.req.path.slice(base.length) || '/')) return next();
    return market.handle(withClientAddress(await rawRequest(c), c), { basePath: base });
  });
  return app;
}

/**
 * For `app.onError(...)`: any error of the app (a route that throws, an `HTTPException`) is
 * answered as an RFC 9457 problem instead of Hono's text/plain 500. `onError` sees 5xx causes.
 *
 *   app.onError(bnplErrorHandler({ onError: (err) => log.error({ err }) }));
 */
export function bnplErrorHandler(options: { onError?: (error: unknown) => void } = {}): ErrorHandler {
  return (error) => {
    const response = answerToResponse(problemAnswer(kitErrorOfFramework(error)));
    if (response.status >= 500) options.onError?.(error);
    return response;
  };
}

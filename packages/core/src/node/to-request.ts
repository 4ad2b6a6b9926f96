/**
 * `IncomingMessage` → web `Request`, once, for every Node framework (tRPC's node-http adapter does
 * the same so its Express adapter stays 48 lines). The body stays the exact bytes that arrived.
 *
 * When a body parser mounted before the kit already consumed the stream, the bytes are gone; the
 * caller passes what the parser left (`rawBody` if it kept one, and the parsed `body`). Kept raw
 * bytes, a Buffer (`express.raw`) or text (`express.text`) are used as they are. A parsed object can
 * only be re-serialized: the request is then marked so that the webhook route refuses it with the
 * caller's mounting advice, since a re-serialized body never verifies reliably.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { markBodyNotRaw } from '../market/body-hints.js';
import { DEFAULT_MAX_BODY_BYTES } from '../signature/message.js';
import { createNodeRequest, type NodeBody } from './node-request.js';

export interface ConsumedBody {
  /** Raw bytes a parser kept (`req.rawBody`, `ctx.request.rawBody`), if any. */
  rawBody?: unknown;
  /** What the parser produced (`req.body`, `ctx.request.body`). */
  body?: unknown;
  /** How to mount the router so the raw bytes survive; shown in the `payload_not_raw` problem. */
  help?: string;
}

export interface ToRequestOptions {
  /** Largest body accepted; the body stream errors with `payload_too_large` past it. Default 256 KiB. */
  maxBodyBytes?: number;
  /** Origin for the absolute URL, e.g. `https://market.example.com`; default from the Host header. */
  baseUrl?: string;
  /** Path and query to use instead of `req.url` (a framework that mounts without rewriting it). */
  url?: string;
  /** The Request's signal. Without one, it is made on first use and aborted if `res` closes first. */
  signal?: AbortSignal;
  /** The response of this request, to tell when the client went away. */
  res?: ServerResponse;
  /** Consulted only when the body stream was already read by someone else. */
  consumed?: ConsumedBody;
}

const DEFAULT_HELP =
  'Mount the bnpl-kit handler before any body parser, or make the parser keep the raw bytes in req.rawBody.';

/** Whether a body parser (or anything else) already read this request's stream. */
export function bodyWasConsumed(req: IncomingMessage): boolean {
  return req.readableDidRead || req.readableEnded || (req as { _body?: unknown })._body === true;
}

function originOf(req: IncomingMessage, baseUrl: string | undefined): string {
  if (baseUrl !== undefined) return baseUrl.replace(/\/+$/, '');
  const host = req.headers.host;
  const secure = (req.socket as { encrypted?: boolean } | undefined)?.encrypted === true;
  // The Host header is only used for routing here (the signed webhook URL comes from config), but a
  // malformed one must not make URL parsing throw.
  if (host && /^[A-Za-z0-9.:[\]-]+$/.test(host)) return `${secure ? 'https' : 'http'}://${host}`;
  return 'http://localhost';
}

/**
 * The origin-form of a request target. HTTP/1.1 also allows the absolute form
 * (`POST http://host/v1/orders`, RFC 9112 §3.2.2), which proxies send and attackers try; appended
 * to an origin it would not parse. Its path and query are what the request means; any other form
 * (`*`, garbage) routes nowhere.
 */
export function pathAndQuery(target: string | undefined): string {
  if (target === undefined || target === '') return '/';
  if (target.startsWith('/')) return target;
  if (/^https?:\/\//i.test(target) && URL.canParse(target)) {
    const parsed = new URL(target);
    return `${parsed.pathname}${parsed.search}`;
  }
  return '/';
}

function replacementBody(consumed: ConsumedBody | undefined): {
  body: Uint8Array | string | null;
  raw: boolean;
} {
  const kept = consumed?.rawBody;
  if (kept instanceof Uint8Array || typeof kept === 'string') return { body: kept, raw: true };
  const parsed = consumed?.body;
  if (parsed instanceof Uint8Array || typeof parsed === 'string') return { body: parsed, raw: true };
  if (parsed === undefined || parsed === null) return { body: null, raw: false };
  return { body: JSON.stringify(parsed), raw: false };
}

/**
 * The Request for `req`. Cheap: a real undici Request is only built if something needs more than
 * `method`, `url`, `headers`, `signal` and the body bytes (see node-request.ts).
 */
export function toRequest(req: IncomingMessage, options: ToRequestOptions = {}): Request {
  const method = (req.method ?? 'GET').toUpperCase();
  const url = `${originOf(req, options.baseUrl)}${pathAndQuery(options.url ?? req.url)}`;
  const { signal, res } = options;
  const maxBytes = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  // The Content-Length still describes the body unless a parser's replacement stands in for it.
  const requestWith = (body: NodeBody, keepLength = true) =>
    createNodeRequest({
      method,
      url,
      headers: { raw: req.rawHeaders, keepLength },
      signal,
      res,
      body,
      socket: req.socket,
    });
  if (method === 'GET' || method === 'HEAD') return requestWith({ kind: 'none' });
  if (!bodyWasConsumed(req)) return requestWith({ kind: 'stream', req, maxBytes });
  const replacement = replacementBody(options.consumed);
  const request = requestWith(
    replacement.body === null ? { kind: 'none' } : { kind: 'bytes', bytes: replacement.body },
    false,
  );
  return replacement.raw ? request : markBodyNotRaw(request, options.consumed?.help ?? DEFAULT_HELP);
}

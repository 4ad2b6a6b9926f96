/**
 * The HTTP exchanges of a check as plain data for reports (JSON, HTML): request and answer with
 * their headers and bodies, secrets masked. A report is shared (attached to a ticket, sent to a
 * vendor), so nothing that grants access survives into it: credentials, signatures, tokens.
 */
import type { HttpExchange } from './http.js';

export interface ExchangeRecord {
  request: {
    method: string;
    url: string;
    headers: Record<string, string>;
    /** The body as text, secrets masked, cut at MAX_BODY_CHARS; absent for a request without one. */
    body?: string;
    bodyBytes: number;
  };
  response: {
    status: number;
    headers: Record<string, string>;
    body: string;
    bodyBytes: number;
  };
  durationMs: number;
}

/** Enough for any answer a check reads; a 256 KiB webhook body is shown by its start. */
export const MAX_BODY_CHARS = 16_384;
/** A check that sends hundreds of generated cases keeps its last exchanges, where it failed. */
export const MAX_EXCHANGES = 25;

const SECRET_HEADERS = new Set([
  'authorization',
  'proxy-authorization',
  'cookie',
  'set-cookie',
  'x-api-key',
  'signature',
  'x-signature',
]);
/** JSON members whose string values grant access: session and access tokens, claim tokens, keys. */
const SECRET_MEMBER = /token|secret|password|api_?key|signing_key|private_key|^signature$/i;
/** A secret member written in JSON text: `"name": "value"` (for bodies too deep to walk). */
const SECRET_MEMBER_TEXT =
  /("[^"\\]*(?:token|secret|password|api_?key|signing_key|private_key|signature)[^"\\]*"\s*:\s*)"((?:[^"\\]|\\.)*)"/gi;
const JWT = /\beyJ[\w-]+\.[\w-]+\.[\w-]+/g;
/** RFC 6750's b64token, long enough to be a credential rather than a word ("bearer of"). */
const BEARER = /\b(Bearer\s+)[A-Za-z0-9\-._~+/]{8,}=*/gi;

export function masked(value: string): string {
  return `<masked: ${value.length} chars>`;
}

function maskHeader(name: string, value: string): string {
  if (!SECRET_HEADERS.has(name.toLowerCase())) return value;
  // Request headers come redacted already (http.ts): say masked, as everywhere else in the record.
  if (value.endsWith('<redacted>')) return value.replace('<redacted>', '<masked>');
  const bearer = /^(Bearer|Basic)\s+(.*)$/i.exec(value);
  return bearer ? `${bearer[1]} ${masked(bearer[2]!)}` : masked(value);
}

export function maskHeaders(headers: Iterable<[string, string]>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of headers) out[name] = maskHeader(name, value);
  return out;
}

function maskJson(value: unknown, key = ''): unknown {
  if (typeof value === 'string') return SECRET_MEMBER.test(key) ? masked(value) : maskText(value);
  if (Array.isArray(value))
    return value.map((item) =>
      SECRET_MEMBER.test(key) && typeof item === 'string' ? masked(item) : maskJson(item, ''),
    );
  if (typeof value === 'object' && value !== null)
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, maskJson(v, k)]));
  return value;
}

function maskText(text: string): string {
  return text.replace(JWT, (jwt) => masked(jwt)).replace(BEARER, (_, bearer: string) => `${bearer}<masked>`);
}

/** A body with its secrets masked: JSON member by member (kept as sent when nothing is secret). */
export function maskBody(text: string): string {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return maskText(text);
  }
  try {
    const safe = maskJson(parsed);
    return JSON.stringify(safe) === JSON.stringify(parsed) ? text : JSON.stringify(safe, null, 2);
  } catch (error) {
    // Nesting deeper than the stack (a syntax check's own body, or a hostile market's answer):
    // mask it as text, secret members included, rather than lose the record.
    if (!(error instanceof RangeError)) throw error;
    return maskText(text).replace(
      SECRET_MEMBER_TEXT,
      (_, name: string, value: string) => `${name}"${masked(value)}"`,
    );
  }
}

function cut(text: string): string {
  return text.length > MAX_BODY_CHARS
    ? `${text.slice(0, MAX_BODY_CHARS)}\n… (${text.length - MAX_BODY_CHARS} more characters not shown)`
    : text;
}

export function recordExchange(exchange: HttpExchange): ExchangeRecord {
  const { request } = exchange;
  const requestBody = request.body;
  return {
    request: {
      method: request.method,
      url: request.url,
      headers: maskHeaders(Object.entries(request.headers)),
      ...(requestBody !== undefined && { body: cut(maskBody(requestBody)) }),
      bodyBytes: request.bodyBytes,
    },
    response: {
      status: exchange.status,
      headers: maskHeaders(exchange.headers.entries()),
      body: cut(maskBody(exchange.text)),
      bodyBytes: Buffer.byteLength(exchange.text),
    },
    durationMs: Math.round(exchange.durationMs),
  };
}

/** The last MAX_EXCHANGES exchanges of a check, for its result. */
export function recordExchanges(exchanges: readonly HttpExchange[]): ExchangeRecord[] {
  return exchanges.slice(-MAX_EXCHANGES).map(recordExchange);
}

/**
 * HTTP to the market under test. Every exchange is kept (request line, headers with credentials
 * redacted, the first bytes of both bodies) so that a failing check can show exactly what it sent
 * and what came back, without the reader having to rerun anything.
 */
import { request as httpRequest } from 'node:http';
import { ContractViolation } from './violation.js';

export interface HttpRequestInit {
  method?: string;
  headers?: Record<string, string>;
  /** Sent exactly as given. */
  body?: string | Uint8Array;
  /** Sent as `JSON.stringify(json)` with `Content-Type: application/json` unless a type is given. */
  json?: unknown;
  /** This request's timeout instead of the client's (a check that waits out the market's own timeout). */
  timeoutMs?: number;
  /**
   * A `Host` header other than the URL's, as a reverse proxy sends (fetch cannot set it, so the
   * request goes through node:http).
   */
  host?: string;
}

export interface RecordedRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
  bodyExcerpt: string | undefined;
  bodyBytes: number;
}

export interface HttpExchange {
  request: RecordedRequest;
  status: number;
  headers: Headers;
  /** The whole response body as text. */
  text: string;
  durationMs: number;
  /** The body parsed as JSON, or undefined when it is not JSON. */
  json(): unknown;
  /** The media type without parameters, lower case (`application/problem+json`). */
  mediaType(): string;
  /** Advice about this answer that is not a failure (e.g. the kit's problem vocabulary not used). */
  advisories: string[];
}

const EXCERPT_CHARS = 300;
const SECRET_HEADERS = new Set(['authorization', 'x-api-key', 'cookie']);

export function excerpt(text: string, max = EXCERPT_CHARS): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max)}… (${text.length} chars)` : flat;
}

function redact(headers: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (!SECRET_HEADERS.has(name.toLowerCase())) out[name] = value;
    else out[name] = value.startsWith('Bearer ') ? 'Bearer <redacted>' : '<redacted>';
  }
  return out;
}

export interface ContractHttpOptions {
  fetch?: typeof fetch;
  /** Per request; a market that does not answer in time fails the check. Default 10 000. */
  timeoutMs?: number;
  /** Runs on every answer and may throw a ContractViolation (openapi-validation.ts). */
  checkResponse?: (exchange: HttpExchange) => void;
}

/** `TypeError: fetch failed (ECONNRESET: other side closed)`: undici hides the useful part in `cause`. */
function describeError(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const cause = error.cause as { code?: unknown; message?: unknown } | undefined;
  const detail = cause
    ? ` (${[cause.code, cause.message].filter((p) => typeof p === 'string').join(': ')})`
    : '';
  return `${error.name}: ${error.message}${detail}`;
}

/** One request over node:http with the given `Host` header, answered as a fetch `Response`. */
function sendWithHost(
  url: string,
  host: string,
  init: {
    method: string;
    headers: Record<string, string>;
    body: string | Uint8Array | undefined;
    timeoutMs: number;
  },
): Promise<Response> {
  return new Promise((resolve, reject) => {
    const target = new URL(url);
    const request = httpRequest(
      {
        hostname: target.hostname,
        port: target.port,
        path: `${target.pathname}${target.search}`,
        method: init.method,
        headers: { ...init.headers, host },
        timeout: init.timeoutMs,
      },
      (answer) => {
        const chunks: Buffer[] = [];
        answer.on('data', (chunk: Buffer) => chunks.push(chunk));
        answer.on('end', () => {
          const headers = new Headers();
          for (const [name, value] of Object.entries(answer.headers)) {
            if (value !== undefined) headers.set(name, Array.isArray(value) ? value.join(', ') : value);
          }
          const status = answer.statusCode ?? 0;
          const bytes = Buffer.concat(chunks);
          resolve(new Response(status === 204 || status === 304 ? null : bytes, { status, headers }));
        });
        answer.on('error', reject);
      },
    );
    request.on('timeout', () => request.destroy(new Error(`no answer within ${init.timeoutMs} ms`)));
    request.on('error', reject);
    request.end(init.body === undefined ? undefined : Buffer.from(init.body));
  });
}

export class ContractHttp {
  readonly exchanges: HttpExchange[] = [];
  /** Advice a check noted that belongs to no one exchange. */
  readonly notes: string[] = [];
  readonly #fetch: typeof fetch;
  readonly #timeoutMs: number;
  readonly #checkResponse: ((exchange: HttpExchange) => void) | undefined;

  constructor(options: ContractHttpOptions = {}) {
    this.#fetch = options.fetch ?? ((input, init) => fetch(input, init));
    this.#timeoutMs = options.timeoutMs ?? 10_000;
    this.#checkResponse = options.checkResponse;
  }

  /** The most recent exchange, for a violation that has no particular one to show. */
  last(): HttpExchange | undefined {
    return this.exchanges.at(-1);
  }

  async send(url: string, init: HttpRequestInit = {}): Promise<HttpExchange> {
    const method = init.method ?? (init.body !== undefined || init.json !== undefined ? 'POST' : 'GET');
    const headers: Record<string, string> = { ...init.headers };
    let body = init.body;
    if (init.json !== undefined) {
      body = JSON.stringify(init.json);
      if (!Object.keys(headers).some((h) => h.toLowerCase() === 'content-type')) {
        headers['content-type'] = 'application/json';
      }
    }
    const bodyText =
      body === undefined ? undefined : typeof body === 'string' ? body : new TextDecoder().decode(body);
    const request: RecordedRequest = {
      method,
      url,
      headers: redact(headers),
      bodyExcerpt: bodyText === undefined ? undefined : excerpt(bodyText),
      bodyBytes:
        body === undefined ? 0 : typeof body === 'string' ? Buffer.byteLength(body) : body.byteLength,
    };
    const started = performance.now();
    const timeoutMs = init.timeoutMs ?? this.#timeoutMs;
    if (init.host !== undefined) request.headers.host = init.host;
    let response: Response;
    let text: string;
    try {
      const requestInit = {
        method,
        headers,
        body: body as BodyInit | undefined,
        // A 302 is an answer to check, not something to follow.
        redirect: 'manual' as const,
        signal: AbortSignal.timeout(timeoutMs),
      };
      response = await (init.host === undefined
        ? this.#fetch(url, requestInit)
        : sendWithHost(url, init.host, { method, headers, body, timeoutMs }));
      text = await response.text();
    } catch (error) {
      const why = describeError(error);
      throw new ContractViolation({
        expected: `an HTTP answer from ${method} ${url} within ${timeoutMs} ms`,
        actual: `no answer (${why})`,
        spec: 'WIRE §5',
      });
    }
    const exchange: HttpExchange = {
      request,
      status: response.status,
      headers: response.headers,
      text,
      durationMs: performance.now() - started,
      advisories: [],
      json() {
        try {
          return JSON.parse(text) as unknown;
        } catch {
          return undefined;
        }
      },
      mediaType() {
        return (response.headers.get('content-type') ?? '').split(';')[0]!.trim().toLowerCase();
      },
    };
    this.exchanges.push(exchange);
    this.#checkResponse?.(exchange);
    return exchange;
  }
}

/** `POST /v1/orders → 201 {"id":…}`: one line for a failure message. */
export function describeExchange(exchange: HttpExchange): string {
  const { request } = exchange;
  const type = exchange.headers.get('content-type');
  const body = exchange.text === '' ? '(empty body)' : excerpt(exchange.text);
  const location = exchange.headers.get('location');
  return [
    `${request.method} ${request.url}${request.bodyExcerpt === undefined ? '' : ` with body ${request.bodyExcerpt}`}`,
    `→ ${exchange.status}${type ? ` ${type}` : ''}${location ? ` Location: ${location}` : ''} ${body}`,
  ].join('\n    ');
}

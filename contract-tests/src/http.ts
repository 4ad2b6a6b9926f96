/**
 * HTTP to the market under test. Every exchange is kept (request line, headers with credentials
 * redacted, the first bytes of both bodies) so that a failing check can show exactly what it sent
 * and what came back, without the reader having to rerun anything.
 */
import { parseBearerToken } from '@bnpl-kit/core';
import {
  isConnectionReset,
  lostBeforeAnswer,
  type MarketAnswer,
  MarketConnectionError,
  type MarketTransport,
  safeToRepeat,
  sendOverNetwork,
} from './http-transport.js';
import { runTogether, takeRacerSlot } from './together.js';
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
   * request goes over the network even when the client was given a `fetch`).
   */
  host?: string;
}

export interface RecordedRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
  bodyExcerpt: string | undefined;
  /** The whole body as text (not redacted: exchange-record.ts masks it for reports). */
  body?: string | undefined;
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
    else out[name] = parseBearerToken(value) !== undefined ? 'Bearer <redacted>' : '<redacted>';
  }
  return out;
}

export interface ContractHttpOptions {
  /** An in-process market's fetch; without one, requests go over the network (http-transport.ts). */
  fetch?: typeof fetch;
  /** How requests reach the market instead (tests: a transport with other keep-alive settings). */
  transport?: MarketTransport;
  /** Per request; a market that does not answer in time fails the check. Default 10 000. */
  timeoutMs?: number;
  /** Runs on every answer and may throw a ContractViolation (openapi-validation.ts). */
  checkResponse?: (exchange: HttpExchange) => void;
}

/**
 * `TypeError: fetch failed (ECONNRESET: other side closed)`, `Error: socket hang up (ECONNRESET)`:
 * the useful part is often in `cause` or `code`.
 */
function describeError(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const cause = error.cause as { code?: unknown; message?: unknown } | undefined;
  const code = (error as { code?: unknown }).code;
  const detail =
    typeof cause === 'object' && cause !== null && cause.message !== error.message
      ? ` (${[cause.code, cause.message].filter((p) => typeof p === 'string').join(': ')})`
      : typeof code === 'string' && !error.message.includes(code)
        ? ` (${code})`
        : '';
  return `${error.name}: ${error.message}${detail}`;
}

/** An in-process market's `fetch` as a transport (it cannot set `Host`; those go over the network). */
function fetchTransport(fetchImpl: typeof fetch): MarketTransport {
  return async (url, request) => {
    // A fetch cannot hold a request's last byte: racers are at least started in the same turn.
    if (request.together) {
      request.together.held();
      await request.together.release;
    }
    const response = await fetchImpl(url, {
      method: request.method,
      headers: request.headers,
      body: request.body as BodyInit | undefined,
      // A 302 is an answer to check, not something to follow.
      redirect: 'manual',
      signal: AbortSignal.timeout(request.timeoutMs),
    });
    try {
      return { status: response.status, headers: response.headers, text: await response.text() };
    } catch (error) {
      // The head arrived: a request cut short in its answer is never sent again.
      throw new MarketConnectionError(error, true);
    }
  };
}

export class ContractHttp {
  readonly exchanges: HttpExchange[] = [];
  /** Advice a check noted that belongs to no one exchange. */
  readonly notes: string[] = [];
  readonly #transport: MarketTransport;
  readonly #timeoutMs: number;
  readonly #checkResponse: ((exchange: HttpExchange) => void) | undefined;
  /** Requests sent and not yet answered (or failed). */
  #inFlight = 0;
  /** When a request was last sent or settled (epoch ms): the check's last sign of progress. */
  #lastActivityAt = Date.now();

  constructor(options: ContractHttpOptions = {}) {
    this.#transport = options.transport ?? (options.fetch ? fetchTransport(options.fetch) : sendOverNetwork);
    this.#timeoutMs = options.timeoutMs ?? 10_000;
    this.#checkResponse = options.checkResponse;
  }

  /**
   * How long the check has gone without progress: 0 while a request is in flight (each has its own
   * timeout), else the time since the last request was sent or settled.
   */
  idleMs(now = Date.now()): number {
    return this.#inFlight > 0 ? 0 : now - this.#lastActivityAt;
  }

  /**
   * Runs the racers at once and makes their requests reach the market together: each racer's first
   * request is written but for its last byte, and the last bytes go out when every racer's is held
   * (last-byte synchronisation, http-transport.ts). For the concurrency checks: without it, requests
   * "sent together" reach the market milliseconds apart, each racer's connection opened in turn.
   */
  together<T>(racers: readonly (() => Promise<T>)[]): Promise<T[]> {
    return runTogether(racers);
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
      body: bodyText,
      bodyBytes:
        body === undefined ? 0 : typeof body === 'string' ? Buffer.byteLength(body) : body.byteLength,
    };
    const started = performance.now();
    const timeoutMs = init.timeoutMs ?? this.#timeoutMs;
    if (init.host !== undefined) request.headers.host = init.host;
    // fetch cannot set `Host` (a reverse proxy's), so those requests always go over node:http.
    const transport = init.host === undefined ? this.#transport : sendOverNetwork;
    const sent = init.host === undefined ? headers : { ...headers, host: init.host };
    // Only the first attempt races: a repeat after a reset goes out on its own.
    let together = takeRacerSlot();
    const attempt = () => {
      const held = together;
      together = undefined;
      return transport(url, {
        method,
        headers: sent,
        body,
        timeoutMs: Math.max(1, Math.ceil(timeoutMs - (performance.now() - started))),
        ...(held && { together: held }),
      });
    };
    let answer: MarketAnswer;
    let repeated = false;
    this.#inFlight += 1;
    this.#lastActivityAt = Date.now();
    try {
      answer = await attempt().catch((error: unknown) => {
        // A reset before any answer is most often a kept-alive connection the market closed as
        // the request went out (http-transport.ts): once, and only where a repeat is harmless.
        // A market that resets every connection still fails, on the repeat.
        if (!lostBeforeAnswer(error) || !safeToRepeat(method, headers)) throw error;
        repeated = true;
        return attempt();
      });
    } catch (error) {
      const why = describeError(error);
      throw new ContractViolation({
        expected: `an HTTP answer from ${method} ${url} within ${timeoutMs} ms`,
        actual: `no answer (${why})${
          repeated
            ? '; sent twice, the first connection having been reset before any answer'
            : isConnectionReset(error)
              ? '; the market closed the connection without a complete answer'
              : ''
        }`,
        spec: 'WIRE §5',
      });
    } finally {
      this.#inFlight -= 1;
      this.#lastActivityAt = Date.now();
    }
    const { status, headers: answerHeaders, text } = answer;
    const exchange: HttpExchange = {
      request,
      status,
      headers: answerHeaders,
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
        return (answerHeaders.get('content-type') ?? '').split(';')[0]!.trim().toLowerCase();
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

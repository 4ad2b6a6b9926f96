/**
 * Certify's HTTP through Prism: a `fetch` for `runContractSuite` that sends each request of a check
 * through the validating proxy and keeps what Prism says of it, per check.
 *
 * - Prism refusing the request itself (422, 401, 415: it breaks the document) forwards nothing, so
 *   the same request goes again through the proxy that validates answers only, and the server's
 *   answer to it is what certify sees and Prism judges. A request Prism refused that the server
 *   accepted (2xx) is a disagreement between the document and the server, kept as a finding.
 * - A request Prism cannot carry at all never reaches it (it would hang or crash Prism, see
 *   prism-fuzz.ts): a JSON body Prism cannot parse (trailing data, a BOM), a doubled Content-Type.
 *   A request Prism refuses in both proxies (no Authorization: its security check runs whatever
 *   `--validate-request` says) is not carried either. Those go straight to the server, so the check
 *   can still finish, and are counted: the test excludes the checks that send them.
 */
import { type PrismVerdict, prismVerdictOf, REQUEST_REFUSALS, type Violation } from './prism.js';

export interface CertifyRoute {
  /** Validates requests and answers; certify's market URL. */
  validating: string;
  /** Validates answers only. */
  forwarding: string;
  /** The server itself, for what Prism cannot carry. */
  direct: string;
}

export interface CheckTraffic {
  /** Requests sent through Prism (the validating proxy). */
  carried: number;
  /** Of those, refused by Prism as breaking the document, then sent through the forwarding proxy. */
  refusedByPrism: number;
  /** Sent straight to the server, with why. */
  notCarried: string[];
  /** Answers Prism found breaking the document (`--errors`: it answered 500 VIOLATIONS instead). */
  answerViolations: Violation[];
  /** Requests Prism refused that the server accepted (2xx): the document refuses what the server takes. */
  refusedButAccepted: string[];
}

export const newTraffic = (): CheckTraffic => ({
  carried: 0,
  refusedByPrism: 0,
  notCarried: [],
  answerViolations: [],
  refusedButAccepted: [],
});

// `ignoreBOM`: keep a BOM in the text, as Prism's JSON parser sees it.
const decoder = new TextDecoder('utf-8', { ignoreBOM: true });

/** Why Prism cannot carry this request, or undefined when it can. */
export function notCarriedBecause(headers: Headers, body: BodyInit | null | undefined): string | undefined {
  const type = headers.get('content-type');
  // Two Content-Type headers arrive joined by a comma, and crash Prism's parser (no answer).
  if (type?.includes(',')) return `a doubled Content-Type (${type})`;
  if (body === undefined || body === null || !type?.includes('json')) return undefined;
  const bytes = typeof body === 'string' ? new TextEncoder().encode(body) : (body as Uint8Array);
  if (!(bytes instanceof Uint8Array)) return 'a body Prism cannot read (not bytes)';
  try {
    JSON.parse(decoder.decode(bytes));
    return undefined;
  } catch {
    return 'a JSON body Prism cannot parse (it never answers one)';
  }
}

/** The URL certify addressed, whichever form `fetch` was given it in. */
const urlOf = (input: Parameters<typeof fetch>[0]): URL =>
  new URL(typeof input === 'string' || input instanceof URL ? input : input.url);

async function send(origin: string, url: URL, init: RequestInit): Promise<Response> {
  return fetch(`${origin}${url.pathname}${url.search}`, { ...init, redirect: 'manual' });
}

/**
 * A `fetch` for certify that sends every request straight to the server at `direct`, whatever
 * origin certify addressed: the checks Prism cannot carry, run with the same market URL (so the
 * webhooks certify signs are signed for the URL the server verifies) without Prism in between.
 */
export function straightFetch(direct: string): typeof fetch {
  return (input, init = {}) => send(direct, urlOf(input), init);
}

/** A `fetch` for certify that routes through Prism and records its findings in `trafficOf(check)`. */
export function prismFetch(route: CertifyRoute, current: () => CheckTraffic): typeof fetch {
  return async (input, init = {}) => {
    const url = urlOf(input);
    const traffic = current();
    const headers = new Headers(init.headers);
    const line = `${init.method ?? 'GET'} ${url.pathname}`;
    const why = notCarriedBecause(headers, init.body);
    if (why !== undefined) {
      traffic.notCarried.push(`${line}: ${why}`);
      return send(route.direct, url, init);
    }
    traffic.carried++;
    const first = await send(route.validating, url, init);
    const verdict: PrismVerdict = await prismVerdictOf(first.clone());
    if (!(verdict.by === 'prism' && REQUEST_REFUSALS.has(verdict.prismType ?? ''))) {
      traffic.answerViolations.push(...verdict.response);
      return first;
    }
    traffic.refusedByPrism++;
    const second = await send(route.forwarding, url, init);
    const forwarded = await prismVerdictOf(second.clone());
    if (forwarded.by === 'prism' && REQUEST_REFUSALS.has(forwarded.prismType ?? '')) {
      traffic.refusedByPrism--;
      traffic.carried--;
      traffic.notCarried.push(`${line}: Prism answers ${forwarded.prismType} itself in both proxies`);
      return send(route.direct, url, init);
    }
    traffic.answerViolations.push(...forwarded.response);
    if (forwarded.by === 'server' && forwarded.status < 300)
      traffic.refusedButAccepted.push(
        `${line} → ${forwarded.status}; Prism: ${[...new Set(verdict.request.map((v) => v.message))].join('; ')}`,
      );
    return second;
  };
}

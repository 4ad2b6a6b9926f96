/**
 * The contract between the web SDK (the "host": the market's page) and the service's hosted pages
 * (the "page": loaded in the SDK's iframe). The sandbox's hosted pages implement the page side, with
 * `createPageBridge` (./page-bridge.ts) or an inline copy of it. This file has no dependencies so a
 * page can bundle or inline it.
 *
 * URLs. `serviceUrl` is an opaque base (trailing slashes dropped, its own query ignored); the page
 * paths are appended to its path:
 *
 *   BNPL     {serviceUrl}/pages/bnpl?order_id=<id>&app_name=<name>&origin=<host origin>&session=<nonce>
 *            [&credify_id=<id>]            (only when the user already has one)
 *   Passport {serviceUrl}/pages/passport?credify_id=<id>&market_id=<organisation id>
 *            &product_types=<comma list, e.g. consumerBNPL>&app_name=<name>&origin=<host origin>&session=<nonce>
 *
 *   `origin` is `window.location.origin` of the host, the only origin the page may post to.
 *   `session` is a fresh 128-bit hex nonce per flow; every message of the flow carries it.
 *   No secret (API key, token) and no personal data beyond the IDs is ever put in a page URL:
 *   basic mode shares no user data, and data-sharing mode shares it through push-claims only.
 *   The page should check `origin` against the market's registered origins and answer with
 *   `Content-Security-Policy: frame-ancestors <origin>` so that no other site can frame it.
 *
 * Messages. Every message, both directions, is a structured-clone object
 *
 *   { source: 'bnpl-kit', version: 1, session: <nonce>, type, payload }
 *
 * with snake_case payload fields (as everything on the wire, docs/protocol.md):
 *
 *   page → host  page_ready           {}                        the page has loaded; host answers host_ready
 *                push_claims_request  { credify_id }            data-sharing: push claims before the offer
 *                completed            { status, order_id, is_payment_completed }
 *                                     status: approved | rejected | pending | failed; ends the flow
 *                close                {}                        the user left the page; ends the flow
 *                resize               { height }                the height in CSS pixels the page's content
 *                                                               needs; the dialog fits it (never taller than
 *                                                               its maximum), so a short step leaves no empty area
 *   host → page  host_ready           { flow: 'bnpl' | 'passport' }
 *                push_claims_result   { ok }                    answer to push_claims_request
 *
 * Rules, both sides. A message is accepted only when `event.origin` is the expected origin (the
 * host: the service page's origin; the page: the `origin` parameter), `event.source` is the expected
 * window (the host: the iframe's contentWindow; the page: window.parent), its envelope and payload
 * have the shapes above and its session is the flow's. Anything else is ignored without an answer.
 * Messages are posted to that exact origin, never '*'. Unknown payload fields are dropped.
 * The host handles one push_claims_request at a time (another arriving before the answer is
 * ignored). `completed` must carry the flow's order_id; it closes the dialog, so a page that
 * wants to show a result screen does so before posting it. Its `is_payment_completed` is a hint
 * for the user interface: the market learns the order's real state from webhooks. Key presses
 * inside the iframe never reach the host, so a page posts `close` when the user presses Escape.
 * After `completed` or `close` the host ignores the session; a page never needs to wait for an answer.
 * IDs are 1..256 characters; the session is 32 lowercase hex digits.
 *
 * The frame. The iframe of a page of another origin has `sandbox="allow-scripts allow-same-origin
 * allow-forms allow-popups"`: the page keeps its origin but cannot navigate the market's page (a
 * page of the market's own origin gets no sandbox, which it could lift: frame-sandbox.ts). Inside the SDK a page therefore
 * ends the flow by posting `completed` rather than redirecting to the market's BNPL callback URL
 * (that redirect serves flows opened outside the SDK, in a top-level window; if the iframe itself
 * navigated to the market's origin, its messages would be ignored by the origin check).
 */

export const PROTOCOL_SOURCE = 'bnpl-kit';
export const PROTOCOL_VERSION = 1;

export const BNPL_PAGE_PATH = '/pages/bnpl';
export const PASSPORT_PAGE_PATH = '/pages/passport';

export type FlowKind = 'bnpl' | 'passport';

/** Outcomes a page may report; the SDK adds 'dismissed' when the user closes the dialog. */
export const PAGE_COMPLETION_STATUSES = ['approved', 'rejected', 'pending', 'failed'] as const;
export type PageCompletionStatus = (typeof PAGE_COMPLETION_STATUSES)[number];

/** Payloads of the messages a page sends to the host. */
export interface PageMessages {
  page_ready: Record<string, never>;
  push_claims_request: { credify_id: string };
  completed: { status: PageCompletionStatus; order_id: string; is_payment_completed: boolean };
  close: Record<string, never>;
  resize: { height: number };
}

/** The tallest content height a page may ask for (the dialog caps it at its own maximum anyway). */
export const MAX_PAGE_HEIGHT = 10_000;

/** Payloads of the messages the host sends to a page. */
export interface HostMessages {
  host_ready: { flow: FlowKind };
  push_claims_result: { ok: boolean };
}

export type ProtocolMessage<M, T extends keyof M = keyof M> = T extends keyof M
  ? {
      source: typeof PROTOCOL_SOURCE;
      version: typeof PROTOCOL_VERSION;
      session: string;
      type: T;
      payload: M[T];
    }
  : never;

export type PageMessage = ProtocolMessage<PageMessages>;
export type HostMessage = ProtocolMessage<HostMessages>;

type PayloadReaders<M> = { [T in keyof M]: (payload: Record<string, unknown>) => M[T] | null };

// IDs are opaque, but bounded so a hostile frame cannot make us carry megabytes around.
const MAX_ID_LENGTH = 256;

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isId(value: unknown): value is string {
  return typeof value === 'string' && value.length > 0 && value.length <= MAX_ID_LENGTH;
}

const empty = (): Record<string, never> => ({});

// Each reader builds a fresh payload from the fields it knows, so nothing else crosses the boundary.
const pageReaders: PayloadReaders<PageMessages> = {
  page_ready: empty,
  push_claims_request: (p) => (isId(p.credify_id) ? { credify_id: p.credify_id } : null),
  completed: (p) =>
    PAGE_COMPLETION_STATUSES.includes(p.status as PageCompletionStatus) &&
    isId(p.order_id) &&
    typeof p.is_payment_completed === 'boolean'
      ? {
          status: p.status as PageCompletionStatus,
          order_id: p.order_id,
          is_payment_completed: p.is_payment_completed,
        }
      : null,
  close: empty,
  resize: (p) =>
    typeof p.height === 'number' && Number.isFinite(p.height) && p.height > 0 && p.height <= MAX_PAGE_HEIGHT
      ? { height: Math.ceil(p.height) }
      : null,
};

const hostReaders: PayloadReaders<HostMessages> = {
  host_ready: (p) => (p.flow === 'bnpl' || p.flow === 'passport' ? { flow: p.flow } : null),
  push_claims_result: (p) => (typeof p.ok === 'boolean' ? { ok: p.ok } : null),
};

function readMessage<M>(
  data: unknown,
  session: string,
  readers: PayloadReaders<M>,
): ProtocolMessage<M> | null {
  if (!isRecord(data)) return null;
  if (data.source !== PROTOCOL_SOURCE || data.version !== PROTOCOL_VERSION) return null;
  if (typeof data.session !== 'string' || data.session !== session) return null;
  const type = data.type;
  // Own keys only: a type named "constructor" or "__proto__" must not find a reader.
  if (typeof type !== 'string' || !Object.hasOwn(readers, type)) return null;
  if (!isRecord(data.payload)) return null;
  const payload = readers[type as keyof M](data.payload);
  if (payload === null) return null;
  return { source: PROTOCOL_SOURCE, version: PROTOCOL_VERSION, session, type, payload } as ProtocolMessage<M>;
}

/** Validates a message the host received from a page; null when it must be ignored. */
export function parsePageMessage(data: unknown, session: string): PageMessage | null {
  return readMessage(data, session, pageReaders);
}

/** Validates a message a page received from the host; null when it must be ignored. */
export function parseHostMessage(data: unknown, session: string): HostMessage | null {
  return readMessage(data, session, hostReaders);
}

function createMessage<M, T extends keyof M>(session: string, type: T, payload: M[T]): ProtocolMessage<M, T> {
  const message = { source: PROTOCOL_SOURCE, version: PROTOCOL_VERSION, session, type, payload };
  return message as ProtocolMessage<M, T>;
}

/** A message from the host (the SDK) to a page. */
export function createHostMessage<T extends keyof HostMessages>(
  session: string,
  type: T,
  payload: HostMessages[T],
) {
  return createMessage<HostMessages, T>(session, type, payload);
}

/** A message from a page to the host (the SDK). */
export function createPageMessage<T extends keyof PageMessages>(
  session: string,
  type: T,
  payload: PageMessages[T],
) {
  return createMessage<PageMessages, T>(session, type, payload);
}

/** `{serviceUrl}{path}?{params}`: the base's own query and fragment are not carried over. */
export function servicePageUrl(serviceUrl: string, path: string, params: Record<string, string | undefined>) {
  const url = new URL(serviceUrl);
  url.pathname = url.pathname.replace(/\/+$/, '') + path;
  url.search = '';
  url.hash = '';
  for (const [key, value] of Object.entries(params)) {
    if (value !== undefined) url.searchParams.set(key, value);
  }
  return url.toString();
}

export interface BnplPageParams {
  orderId: string;
  appName: string;
  origin: string;
  session: string;
  credifyId?: string | undefined;
}

export function bnplPageUrl(serviceUrl: string, p: BnplPageParams): string {
  return servicePageUrl(serviceUrl, BNPL_PAGE_PATH, {
    order_id: p.orderId,
    app_name: p.appName,
    origin: p.origin,
    session: p.session,
    credify_id: p.credifyId,
  });
}

export interface PassportPageParams {
  credifyId: string;
  marketId: string;
  productTypes: readonly string[];
  appName: string;
  origin: string;
  session: string;
}

export function passportPageUrl(serviceUrl: string, p: PassportPageParams): string {
  return servicePageUrl(serviceUrl, PASSPORT_PAGE_PATH, {
    credify_id: p.credifyId,
    market_id: p.marketId,
    product_types: p.productTypes.join(','),
    app_name: p.appName,
    origin: p.origin,
    session: p.session,
  });
}

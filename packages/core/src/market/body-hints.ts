/**
 * Out-of-band facts about a Request or Response body, passed between a bridge (the Node one, the
 * Hono adapter) and the market. Registry symbols on the object itself: not headers, which a client
 * could send, and not module-level WeakMaps, which a dual ESM/CJS install would duplicate.
 *
 * - "not raw": a global body parser consumed the stream and kept no raw copy, so the bridge had to
 *   re-serialize the parsed value. Fine for order creation, fatal for a webhook signature
 *   (stripe-node #341, #1254): the webhook route refuses it with the bridge's mounting advice.
 * - "body reader": the bridge can hand over the exact body bytes without a web stream in between
 *   (a web stream per request costs more than the rest of the Node bridge together).
 * - "header reader": the bridge can answer single header lookups from what it already has, so no
 *   `Headers` object (and its validation of every header) is built unless someone asks for one.
 */
import type { MarketAnswer } from './answer.js';

const NOT_RAW = Symbol.for('bnpl-kit.body-not-raw');

type Tagged = object & { [NOT_RAW]?: string };

/** Marks `request` as carrying a re-serialized body; `help` says how to mount the router instead. */
export function markBodyNotRaw<T extends object>(request: T, help: string): T {
  (request as Tagged)[NOT_RAW] = help;
  return request;
}

/** The mounting advice if the body is not raw, otherwise undefined. */
export function bodyNotRawHelp(request: object): string | undefined {
  return (request as Tagged)[NOT_RAW];
}

/**
 * Methods a Request may implement under these registry symbols (the Node bridge's requests do, on
 * their prototype, so no closure is allocated per request).
 */
export const READ_BODY = Symbol.for('bnpl-kit.read-body');
export const READ_HEADER = Symbol.for('bnpl-kit.read-header');
/** The address of the peer that sent the request (an IP), when the bridge knows it. */
export const READ_CLIENT_ADDRESS = Symbol.for('bnpl-kit.client-address');

export interface FastRequest {
  /**
   * Reads the whole body, refusing more than `maxBytes` with a `payload_too_large` KitError;
   * undefined when the body was already taken another way (the Request's own body is then used).
   */
  [READ_BODY]?(maxBytes: number): Promise<Uint8Array | undefined>;
  /** One header by lower-case name, with `Headers.get` semantics, without building `Headers`. */
  [READ_HEADER]?(name: string): string | null;
  [READ_CLIENT_ADDRESS]?(): string | undefined;
}

/** Who sent the request, as far as the bridge can tell (its peer address), or undefined. */
export function clientAddressOf(request: Request): string | undefined {
  const fast = request as Request & FastRequest;
  return fast[READ_CLIENT_ADDRESS]?.();
}

/** A request header, through the request's cheap lookup when it has one. */
export function readHeader(request: Request, name: string): string | null {
  const fast = request as Request & FastRequest;
  return fast[READ_HEADER] ? fast[READ_HEADER](name) : request.headers.get(name);
}

/** The body through the request's direct reader, or undefined when it has none (or it was used). */
export function readBodyDirectly(
  request: Request,
  maxBytes: number,
): Promise<Uint8Array | undefined> | undefined {
  const fast = request as Request & FastRequest;
  return fast[READ_BODY] ? fast[READ_BODY](maxBytes) : undefined;
}

/**
 * The market's `handle` carries, under this symbol, the same handler answering plain data
 * (answer.ts). A bridge that writes to a socket itself uses it and skips building a `Response`. It
 * sits on the function, not on the market object, so a wrapper that replaces `handle` (to add a
 * route, say) is never bypassed: its own function has no such property.
 */
const ANSWER = Symbol.for('bnpl-kit.answer');

export type Answerer = (request: Request, options?: { basePath?: string }) => Promise<MarketAnswer>;

export function attachAnswerer<F extends object>(handle: F, answer: Answerer): F {
  (handle as F & { [ANSWER]?: Answerer })[ANSWER] = answer;
  return handle;
}

export function answererOf(handle: unknown): Answerer | undefined {
  if (typeof handle !== 'function') return undefined;
  const answer = (handle as { [ANSWER]?: unknown })[ANSWER];
  return typeof answer === 'function' ? (answer as Answerer) : undefined;
}

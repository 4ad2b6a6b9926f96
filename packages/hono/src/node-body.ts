/**
 * The fast raw-body path on Node. `@hono/node-server` hands the handler a lazy Request whose body,
 * once asked for, is a full undici Request over a web stream with its own AbortSignal (what that
 * costs: docs/capacity.md). It also passes the Node request as `c.env.incoming`; when nothing has read from it
 * yet, the kit reads the bytes and headers straight from there through core's `READ_BODY` /
 * `READ_HEADER` hooks. Duck-typed on purpose: this module must load on every Hono runtime.
 */
import { READ_BODY, READ_CLIENT_ADDRESS, READ_HEADER, readNodeBody } from '@bnpl-kit/core/unstable-internals';
import type { Context } from 'hono';

type HeaderValue = string | string[] | undefined;

interface NodeIncoming {
  headers: Record<string, HeaderValue>;
  readableDidRead: boolean;
  readableEnded: boolean;
  readableFlowing: boolean | null;
  destroyed: boolean;
  on(event: string, listener: (arg: never) => void): unknown;
  listenerCount(event: string): number;
  destroy(): void;
}

interface NodeOutgoing {
  closed: boolean;
  writableFinished: boolean;
  once(event: 'close', listener: () => void): unknown;
}

/** The untouched Node request behind `c`, when Hono runs on @hono/node-server. */
export function untouchedIncoming(c: Context): NodeIncoming | undefined {
  const incoming = (c.env as { incoming?: unknown } | undefined)?.incoming as
    | Partial<NodeIncoming>
    | undefined;
  if (typeof incoming !== 'object' || incoming === null) return undefined;
  if (typeof incoming.on !== 'function' || typeof incoming.headers !== 'object') return undefined;
  return incoming.readableDidRead === false ? (incoming as NodeIncoming) : undefined;
}

/** Whether anything but the kit has started consuming the Node request's body. */
function taken(incoming: NodeIncoming): boolean {
  // `readableFlowing` and a 'data' listener show a consumer attached before any byte arrived: the
  // lazy Request's body stream (Readable.toWeb) attaches as soon as the Request is built, and then
  // pauses the socket once its own queue is full (about 64 KiB), so a second reader would wait for
  // an `end` that never comes.
  return (
    incoming.readableDidRead ||
    incoming.readableEnded ||
    incoming.destroyed ||
    incoming.readableFlowing !== null ||
    incoming.listenerCount('data') > 0
  );
}

/**
 * Whether @hono/node-server's lazy Request has built its full Request: its body stream then owns
 * the Node request, even before it attached (it does so on its first pull, a few ticks later). The
 * cache sits under a private symbol; its description is the only handle on it.
 *
 * Private state, kept on purpose: the public alternative (wrapping the lazy Request's eighteen
 * body-building members on every request) costs allocations on the webhook's hot path, and a
 * `new Request(lazy)` elsewhere builds it through another private symbol that no wrapper sees.
 * So `@hono/node-server` is a declared optional peer (`>=1.19.0 <2`, package.json), and
 * test/node-body.test.ts fails when the installed version no longer keeps this state or leaves
 * that range. If the symbol is ever gone, this answers false and `taken()` still catches a body
 * stream that attached: only the few ticks between build and attach lose their guard.
 */
export function lazyRequestBuilt(request: Request): boolean {
  for (const key of Object.getOwnPropertySymbols(request)) {
    if (key.description === 'requestCache')
      return (request as unknown as Record<symbol, unknown>)[key] != null;
  }
  return false;
}

function readIncoming(incoming: NodeIncoming, maxBytes: number): Promise<Uint8Array | undefined> {
  // Untouched when the route began, but the route may have awaited (an auth hook) before reading,
  // and meanwhile something asked Hono's lazy Request for its body, which then took the stream.
  // Say so: core then reads the Request's own body, the one consumer of the stream.
  if (taken(incoming)) return Promise.resolve(undefined);
  // Core's Node reader (cap, drain past it, disconnects), on the duck-typed request checked above.
  return readNodeBody(incoming as unknown as Parameters<typeof readNodeBody>[0], maxBytes);
}

/**
 * What the direct readers of one request need, kept on it under one symbol. The readers and the
 * `signal` getter below are shared by every request and find their request's values here: a
 * function made per request and defined on it (a getter especially) would give each request a
 * hidden class of its own or turn it into a dictionary-mode object, one more per request.
 */
interface NodeSide {
  incoming: NodeIncoming;
  outgoing: NodeOutgoing | undefined;
  signal: AbortSignal | undefined;
}

const NODE_SIDE = Symbol('bnpl-kit.hono.node-side');
type Sided = Request & { [NODE_SIDE]: NodeSide };

/**
 * The request's signal without building the full Request: asking Hono's lazy Request for `signal`
 * builds it, body stream included, and that stream then competes with the direct reader. Aborted
 * when the response closes before it finished (the client went away), as @hono/node-server does.
 */
function signalOf(side: NodeSide): AbortSignal {
  if (side.signal) return side.signal;
  const controller = new AbortController();
  side.signal = controller.signal;
  const { outgoing } = side;
  if (outgoing?.closed) {
    if (!outgoing.writableFinished) controller.abort();
  } else {
    outgoing?.once('close', () => outgoing.writableFinished || controller.abort());
  }
  return side.signal;
}

const SIGNAL: PropertyDescriptor = {
  get(this: Sided) {
    return signalOf(this[NODE_SIDE]);
  },
  configurable: true,
};

// Node has already lower-cased the header names and joined repeated values with ", ", which is
// what `Headers.get` returns too.
function readHeader(this: Sided, name: string): string | null {
  const value = this[NODE_SIDE].incoming.headers[name];
  return value === undefined ? null : Array.isArray(value) ? value.join(', ') : value;
}

function readBody(this: Sided, maxBytes: number): Promise<Uint8Array | undefined> {
  return lazyRequestBuilt(this)
    ? Promise.resolve(undefined)
    : readIncoming(this[NODE_SIDE].incoming, maxBytes);
}

/** The Node response behind `c`, when Hono runs on @hono/node-server. */
export function nodeOutgoing(c: Context): NodeOutgoing | undefined {
  const outgoing = (c.env as { outgoing?: Partial<NodeOutgoing> } | undefined)?.outgoing;
  return typeof outgoing?.once === 'function' ? (outgoing as NodeOutgoing) : undefined;
}

/** Gives `request` (Hono's lazy Request) the direct readers and a signal of its own. */
export function withNodeReaders(request: Request, incoming: NodeIncoming, outgoing?: NodeOutgoing): Request {
  const side: NodeSide = { incoming, outgoing, signal: undefined };
  Object.defineProperty(request, NODE_SIDE, { value: side });
  Object.defineProperty(request, 'signal', SIGNAL);
  Object.defineProperty(request, READ_HEADER, { value: readHeader });
  Object.defineProperty(request, READ_BODY, { value: readBody });
  return request;
}

const CLIENT_SOCKET = Symbol('bnpl-kit.hono.client-socket');

function clientAddress(this: Request & { [CLIENT_SOCKET]: { remoteAddress?: string } }): string | undefined {
  return this[CLIENT_SOCKET].remoteAddress;
}

/**
 * Tells the market the peer address of the Node connection behind `c` (for per-client bounds),
 * whichever Request it gets. Nothing on runtimes without a Node request.
 */
export function withClientAddress(request: Request, c: Context): Request {
  const socket = (c.env as { incoming?: { socket?: { remoteAddress?: string } } } | undefined)?.incoming
    ?.socket;
  if (socket && !Object.hasOwn(request, READ_CLIENT_ADDRESS)) {
    Object.defineProperty(request, CLIENT_SOCKET, { value: socket });
    Object.defineProperty(request, READ_CLIENT_ADDRESS, { value: clientAddress });
  }
  return request;
}

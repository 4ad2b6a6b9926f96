/**
 * A `Request` for an `IncomingMessage` that costs next to nothing until it is used. Building a real
 * undici Request per call (URL parsing, header validation, an AbortSignal, a body stream) costs more
 * than everything else the market does for a webhook except the Ed25519 check, so this object keeps
 * the Node values and answers `method`, `url` and `signal` from them, single header lookups and the
 * body bytes through the market's direct readers (body-hints.ts). Anything else (`headers`, `body`,
 * `clone()`, `text()`, …) builds what it needs once, from the same values. @hono/node-server uses
 * the same technique.
 *
 * It is `instanceof Request` and behaves as one for every property and method; the one thing it
 * cannot be is the input of `new Request(...)` or `fetch(...)` (undici checks an internal brand):
 * pass `request.clone()` there.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { READ_BODY, READ_CLIENT_ADDRESS, READ_HEADER } from '../market/body-hints.js';
import { nodeBodyStream } from './body-stream.js';
import { readNodeBody } from './read-body.js';

export type NodeBody =
  | { kind: 'none' }
  | { kind: 'stream'; req: IncomingMessage; maxBytes: number }
  | { kind: 'bytes'; bytes: Uint8Array | string };

/**
 * The request's headers as Node received them (`rawHeaders`: name, value, name, value, …), read in
 * place: single lookups scan them, and the `[name, value]` list a `Headers` or a real Request needs
 * is only built if something asks for one. Connection-level headers describe this hop, not the
 * request (and Request would refuse some), so they are never seen; nor is `Content-Length` when
 * the body was replaced (`keepLength: false`).
 */
export interface NodeHeaders {
  raw: readonly string[];
  keepLength: boolean;
}

const HOP_BY_HOP = new Set([
  'connection',
  'keep-alive',
  'transfer-encoding',
  'upgrade',
  'proxy-connection',
  'te',
  'trailer',
  'http2-settings',
]);

/** Whether a header (lower-case name) is part of the Request made from a Node request. */
function carried(name: string, keepLength: boolean): boolean {
  return !HOP_BY_HOP.has(name) && name.charCodeAt(0) !== 0x3a && (keepLength || name !== 'content-length');
}

/** Lower-case `[name, value]` pairs, for `Headers` and real Requests. */
function headerList({ raw, keepLength }: NodeHeaders): [string, string][] {
  const out: [string, string][] = [];
  for (let i = 0; i < raw.length; i += 2) {
    const name = raw[i]!.toLowerCase();
    if (carried(name, keepLength)) out.push([name, raw[i + 1]!]);
  }
  return out;
}

/** `Headers.get` semantics (repeated headers joined with ", ") for a lower-case name. */
function lookup({ raw, keepLength }: NodeHeaders, name: string): string | null {
  if (!carried(name, keepLength)) return null;
  let found: string | null = null;
  for (let i = 0; i < raw.length; i += 2) {
    const key = raw[i]!;
    // Most names differ in length; senders mostly spell them in lower case already.
    if (key.length !== name.length || (key !== name && key.toLowerCase() !== name)) continue;
    const value = raw[i + 1]!;
    found = found === null ? value : `${found}, ${value}`;
  }
  return found;
}

export interface NodeRequestInit {
  method: string;
  url: string;
  headers: NodeHeaders;
  body: NodeBody;
  /** An explicit signal; otherwise one is made on first use, aborted when `res` closes unfinished. */
  signal?: AbortSignal | undefined;
  res?: ServerResponse | undefined;
  /** The connection it came on; its peer address is read only when asked for. */
  socket?: { remoteAddress?: string | undefined } | null | undefined;
}

const STATE = Symbol('bnpl-kit.node-request');

class State {
  headersObject: Headers | undefined = undefined;
  real: Request | undefined = undefined;
  /** The bytes once read directly (a real Request built later is built from them). */
  read: Uint8Array | undefined = undefined;
  reading = false;
  /** The direct read under way, so a real Request built meanwhile takes its bytes from it. */
  pending: Promise<Uint8Array> | undefined = undefined;
  constructor(readonly init: NodeRequestInit) {}

  get signal(): AbortSignal {
    if (this.init.signal) return this.init.signal;
    const controller = new AbortController();
    const res = this.init.res;
    if (res) {
      // Made late: a client that is already gone aborts it at once.
      if (res.closed && !res.writableFinished) controller.abort();
      else res.once('close', () => res.writableFinished || controller.abort());
    }
    this.init.signal = controller.signal;
    return controller.signal;
  }
}

type NodeRequest = Request & { [STATE]: State };

function state(request: Request): State {
  return (request as NodeRequest)[STATE];
}

function materialize(request: Request): Request {
  const s = state(request);
  if (s.real) return s.real;
  const { init } = s;
  const options: RequestInit & { duplex?: 'half' } = {
    method: init.method,
    headers: headerList(init.headers),
    signal: s.signal,
  };
  if (s.read !== undefined) options.body = s.read as BodyInit;
  else if (s.pending) {
    // A second stream on the same IncomingMessage would split the bytes between two readers.
    options.body = bodyOf(s.pending);
    options.duplex = 'half';
  } else if (init.body.kind === 'bytes') options.body = init.body.bytes as BodyInit;
  else if (init.body.kind === 'stream') {
    options.body = nodeBodyStream(init.body.req, init.body.maxBytes);
    options.duplex = 'half';
  }
  s.real = new Request(init.url, options);
  return s.real;
}

/** A body stream of the bytes a direct read will deliver (or of its failure). */
function bodyOf(pending: Promise<Uint8Array>): ReadableStream<Uint8Array> {
  return new ReadableStream<Uint8Array>({
    pull: (controller) =>
      pending.then(
        (bytes) => {
          controller.enqueue(bytes);
          controller.close();
        },
        (error: unknown) => controller.error(error),
      ),
  });
}

// Not `async`: on the webhook path this is one promise fewer per request.
function readDirectly(s: State, maxBytes: number): Promise<Uint8Array | undefined> {
  // Once the real Request exists, its body stream owns the IncomingMessage.
  if (s.real || s.reading) return Promise.resolve(undefined);
  s.reading = true;
  const body = s.init.body;
  if (body.kind === 'stream') {
    s.pending = readNodeBody(body.req, Math.min(maxBytes, body.maxBytes)).then((bytes) => {
      s.read = bytes;
      return bytes;
    });
    return s.pending;
  }
  if (body.kind === 'none') s.read = new Uint8Array(0);
  else s.read = typeof body.bytes === 'string' ? new TextEncoder().encode(body.bytes) : body.bytes;
  return Promise.resolve(s.read);
}

const ANSWERED_HERE = new Set<PropertyKey>(['constructor', 'method', 'url', 'headers', 'signal', 'bodyUsed']);
const prototype: object = Object.create(Request.prototype);
for (const key of Reflect.ownKeys(Request.prototype)) {
  if (ANSWERED_HERE.has(key)) continue;
  const descriptor = Object.getOwnPropertyDescriptor(Request.prototype, key)!;
  if (typeof descriptor.value === 'function') {
    Object.defineProperty(prototype, key, {
      value(this: Request, ...args: unknown[]) {
        const real = materialize(this) as unknown as Record<PropertyKey, (...a: unknown[]) => unknown>;
        return real[key]!(...args);
      },
    });
  } else if (descriptor.get) {
    Object.defineProperty(prototype, key, {
      get(this: Request) {
        return (materialize(this) as unknown as Record<PropertyKey, unknown>)[key];
      },
    });
  } else {
    Object.defineProperty(prototype, key, descriptor);
  }
}
Object.defineProperties(prototype, {
  method: {
    get(this: Request) {
      return state(this).init.method;
    },
  },
  url: {
    get(this: Request) {
      return state(this).init.url;
    },
  },
  headers: {
    get(this: Request) {
      const s = state(this);
      if (s.real) return s.real.headers;
      s.headersObject ??= new Headers(headerList(s.init.headers));
      return s.headersObject;
    },
  },
  signal: {
    get(this: Request) {
      return state(this).signal;
    },
  },
  bodyUsed: {
    get(this: Request) {
      const s = state(this);
      return s.reading || (s.real?.bodyUsed ?? false);
    },
  },
  [READ_HEADER]: {
    value(this: Request, name: string): string | null {
      const s = state(this);
      return s.real ? s.real.headers.get(name) : lookup(s.init.headers, name.toLowerCase());
    },
  },
  [READ_BODY]: {
    value(this: Request, maxBytes: number): Promise<Uint8Array | undefined> {
      return readDirectly(state(this), maxBytes);
    },
  },
  [READ_CLIENT_ADDRESS]: {
    value(this: Request): string | undefined {
      return state(this).init.socket?.remoteAddress;
    },
  },
});

export function createNodeRequest(init: NodeRequestInit): Request {
  const request = Object.create(prototype) as NodeRequest;
  request[STATE] = new State(init);
  return request;
}

/**
 * The fast raw-body path on Node. `@hono/node-server` hands the handler a lazy Request whose body,
 * once asked for, is a full undici Request over a web stream with its own AbortSignal (what that
 * costs: docs/capacity.md). It also passes the Node request as `c.env.incoming`; when nothing has read from it
 * yet, the kit reads the bytes and headers straight from there through core's `READ_BODY` /
 * `READ_HEADER` hooks. Duck-typed on purpose: this module must load on every Hono runtime.
 */
import { READ_BODY, READ_HEADER, readNodeBody } from '@bnpl-kit/core/unstable-internals';
import type { Context } from 'hono';

type HeaderValue = string | string[] | undefined;

interface NodeIncoming {
  headers: Record<string, HeaderValue>;
  readableDidRead: boolean;
  readableEnded: boolean;
  destroyed: boolean;
  on(event: string, listener: (arg: never) => void): unknown;
  destroy(): void;
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

function readIncoming(incoming: NodeIncoming, maxBytes: number): Promise<Uint8Array | undefined> {
  // Untouched when the route began, but the route may have awaited (an auth hook) before reading,
  // and meanwhile something asked Hono's lazy Request for its body, which then took the stream.
  // Its bytes are there now: say so, and core reads the Request's own body instead of hanging on a
  // stream that has already ended.
  if (incoming.readableDidRead || incoming.readableEnded || incoming.destroyed) {
    return Promise.resolve(undefined);
  }
  // Core's Node reader (cap, drain past it, disconnects), on the duck-typed request checked above.
  return readNodeBody(incoming as unknown as Parameters<typeof readNodeBody>[0], maxBytes);
}

/**
 * Gives `request` (Hono's lazy Request) the direct readers. Node has already lower-cased the
 * header names and joined repeated values with ", ", which is what `Headers.get` returns too.
 */
export function withNodeReaders(request: Request, incoming: NodeIncoming): Request {
  Object.defineProperty(request, READ_HEADER, {
    value(name: string): string | null {
      const value = incoming.headers[name];
      return value === undefined ? null : Array.isArray(value) ? value.join(', ') : value;
    },
  });
  Object.defineProperty(request, READ_BODY, {
    value: (maxBytes: number) => readIncoming(incoming, maxBytes),
  });
  return request;
}

/**
 * The fast raw-body path on Node. `@hono/node-server` hands the handler a lazy Request whose body,
 * once asked for, is a full undici Request over a web stream with its own AbortSignal (≈150 µs
 * per webhook). It also passes the Node request as `c.env.incoming`; when nothing has read from it
 * yet, the kit reads the bytes and headers straight from there through core's `READ_BODY` /
 * `READ_HEADER` hooks. Duck-typed on purpose: this module must load on every Hono runtime.
 */
import { KitError } from '@bnpl-kit/core';
import { READ_BODY, READ_HEADER } from '@bnpl-kit/core/unstable-internals';
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

function tooLarge(maxBytes: number): KitError {
  // Core turns any `payload_too_large` into its own problem (with `connection: close`).
  return new KitError('payload_too_large', `Request body exceeds the ${maxBytes}-byte limit`);
}

function readIncoming(incoming: NodeIncoming, maxBytes: number): Promise<Uint8Array | undefined> {
  // Untouched when the route began, but the route may have awaited (an auth hook) before reading,
  // and meanwhile something asked Hono's lazy Request for its body, which then took the stream.
  // Its bytes are there now: say so, and core reads the Request's own body instead of hanging on a
  // stream that has already ended.
  if (incoming.readableDidRead || incoming.readableEnded || incoming.destroyed) {
    return Promise.resolve(undefined);
  }
  const declared = incoming.headers['content-length'];
  if (typeof declared === 'string' && Number(declared) > maxBytes) return Promise.reject(tooLarge(maxBytes));
  return new Promise((resolve, reject) => {
    const chunks: Uint8Array[] = [];
    let size = 0;
    let settled = false;
    incoming.on('data', (chunk: Uint8Array) => {
      if (settled) return;
      size += chunk.byteLength;
      if (size > maxBytes) {
        settled = true;
        reject(tooLarge(maxBytes));
        return;
      }
      chunks.push(chunk);
    });
    incoming.on('end', () => {
      if (settled) return;
      settled = true;
      if (chunks.length === 1) return resolve(chunks[0]!);
      const out = new Uint8Array(size);
      let offset = 0;
      for (const chunk of chunks) {
        out.set(chunk, offset);
        offset += chunk.byteLength;
      }
      resolve(out);
    });
    incoming.on('error', (error: Error) => {
      if (settled) return;
      settled = true;
      reject(error);
    });
    incoming.on('close', () => {
      if (settled || incoming.readableEnded) return;
      settled = true;
      reject(new DOMException('The client disconnected before sending the whole body', 'AbortError'));
    });
  });
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

/**
 * Lingering close for a connection whose request body was refused (413) mid-upload. Node ends such
 * a connection right after the answer (`destroySoon`: close once written), with the client's bytes
 * still arriving; closing a socket with unread data sends a reset, and a client that reads only
 * after uploading (curl, most HTTP clients) loses the 413 the kernel had not handed over yet. So the
 * answer goes out with a FIN instead, and what the client still sends is read and dropped until it
 * closes, or for `LINGER_MS` at most (nginx's `lingering_close` does the same).
 */
import type { Socket } from 'node:net';

/** Longest a refused upload may keep sending after its answer before the connection is cut. */
export const LINGER_MS = 10_000;

const LINGERING = Symbol('bnpl-kit.lingering');

/** Makes Node's close after the answer a lingering one on `socket`. Idempotent. */
export function lingerOnClose(socket: Socket | null | undefined, lingerMs = LINGER_MS): void {
  if (!socket || (socket as Socket & { [LINGERING]?: true })[LINGERING]) return;
  Object.defineProperty(socket, LINGERING, { value: true });
  // Instance override of what Node's HTTP server calls when a response ends a connection.
  (socket as Socket & { destroySoon(): void }).destroySoon = function lingeringClose(this: Socket) {
    if (this.destroyed) return;
    this.end();
    this.resume();
    const timer = setTimeout(() => this.destroy(), lingerMs);
    timer.unref();
    this.once('close', () => clearTimeout(timer));
  };
}

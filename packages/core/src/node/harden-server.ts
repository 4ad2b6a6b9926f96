/**
 * Settings for a Node HTTP server that faces the internet, in one call. Node's defaults suit a
 * trusted network: a connection that never sends a byte stays open forever, a whole request may
 * take 300 s, and there is no limit on open connections, so a few thousand silent sockets exhaust
 * the process's file descriptors (1,024 is a common limit) and every request then fails.
 *
 *   const server = http.createServer(app);
 *   hardenServer(server); // or hardenServer(server, { maxConnections: 2_000 })
 *
 * - A connection with no request in flight that stays silent for `idleTimeoutMs` is closed (a
 *   request in flight is bounded by `requestTimeoutMs` instead, never cut by this one).
 * - At `maxConnections` open connections, a new one makes room: the oldest connection with no
 *   request in flight (idle, kept alive, or still trickling its headers) is closed instead of the
 *   newcomer, so slow or silent clients cannot keep new ones (a balancer's `/healthz`) out until
 *   their timeouts free them. Only when every open connection has a request in flight is the new
 *   one closed on arrival.
 * - Headers and whole requests that trickle in are answered 408 (a problem document, like every
 *   parser refusal: see client-error.ts), kept-alive connections close after `keepAliveTimeoutMs`.
 */
import type { Server } from 'node:http';
import type { Socket } from 'node:net';
import { answerClientError } from './client-error.js';

export interface ServerLimits {
  /** A connection with no request in flight, silent this long, is closed. */
  idleTimeoutMs: number;
  /**
   * Open connections at most; a new one past it closes the oldest without a request in flight (or
   * itself, when all are busy). Keep it under the open-file limit.
   */
  maxConnections: number;
  /** Headers not complete by then: 408. */
  headersTimeoutMs: number;
  /** Whole request (headers and body) not received by then: 408. At least `headersTimeoutMs`. */
  requestTimeoutMs: number;
  /** An idle kept-alive connection is closed after this. */
  keepAliveTimeoutMs: number;
}

/** What the reference servers run with; `hardenServer` uses these for anything not given. */
export const RECOMMENDED_SERVER_LIMITS: Readonly<ServerLimits> = Object.freeze({
  idleTimeoutMs: 10_000,
  maxConnections: 800,
  headersTimeoutMs: 10_000,
  requestTimeoutMs: 30_000,
  keepAliveTimeoutMs: 5_000,
});

export interface HardenServerOptions extends Partial<ServerLimits> {
  /** Told about each refusal of the HTTP parser (timeouts, oversized headers, not HTTP). */
  onClientError?: (error: Error & { code?: string }) => void;
  /** Told when a connection is closed for the cap or for being idle. */
  onConnectionClosed?: (reason: 'max_connections' | 'idle') => void;
}

/** Whether a request is in flight on `socket` (its response has not finished). */
function busy(socket: Socket): boolean {
  const current = (socket as { _httpMessage?: { writableFinished?: boolean } })._httpMessage;
  return current !== undefined && current !== null && current.writableFinished !== true;
}

/**
 * Enforces the connection cap by closing the oldest connection with no request in flight when a
 * new one arrives past it (not Node's `server.maxConnections`, which refuses the newcomer). A Set
 * keeps insertion order, so its first non-busy entry is the oldest such connection.
 */
function makeRoomAtTheCap(server: Server, maxConnections: number, closed: () => void): void {
  const open = new Set<Socket>();
  server.on('connection', (socket: Socket) => {
    open.add(socket);
    socket.once('close', () => open.delete(socket));
    if (open.size <= maxConnections) return;
    let victim: Socket = socket;
    for (const candidate of open) {
      if (candidate === socket) break;
      if (!busy(candidate)) {
        victim = candidate;
        break;
      }
    }
    open.delete(victim);
    closed();
    victim.destroy();
  });
}

/** Applies the limits to `server` (before or after `listen`); returns the limits in force. */
export function hardenServer(server: Server, options: HardenServerOptions = {}): ServerLimits {
  const limits: ServerLimits = { ...RECOMMENDED_SERVER_LIMITS };
  for (const key of Object.keys(limits) as (keyof ServerLimits)[]) {
    const given = options[key];
    if (given === undefined) continue;
    if (!Number.isInteger(given) || given < 1) throw new RangeError(`${key} must be a positive integer`);
    limits[key] = given;
  }
  limits.requestTimeoutMs = Math.max(limits.requestTimeoutMs, limits.headersTimeoutMs);

  server.headersTimeout = limits.headersTimeoutMs;
  server.requestTimeout = limits.requestTimeoutMs;
  // Node checks both on this interval (30 s by default, which would stretch them).
  (server as { connectionsCheckingInterval?: number }).connectionsCheckingInterval = Math.min(
    1_000,
    limits.headersTimeoutMs,
  );
  server.keepAliveTimeout = limits.keepAliveTimeoutMs;
  makeRoomAtTheCap(server, limits.maxConnections, () => options.onConnectionClosed?.('max_connections'));

  // Node arms every socket with `server.timeout` and, because this listener exists, leaves the
  // decision to it: a socket in the middle of a request is left to `requestTimeout`.
  server.timeout = limits.idleTimeoutMs;
  server.on('timeout', (socket: Socket) => {
    if (busy(socket)) return;
    options.onConnectionClosed?.('idle');
    socket.destroy();
  });

  server.on('clientError', (error: Error & { code?: string }, socket) => {
    options.onClientError?.(error);
    answerClientError(error, socket);
  });
  return limits;
}

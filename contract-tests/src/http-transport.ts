/**
 * How certify reaches a market: keep-alive that stays clear of the market's own idle timeout, and
 * one repeat of a request lost to a connection reset where the protocol makes a repeat safe.
 *
 * The race this is about: a kept-alive connection sits idle, the market closes it (Node 5 s,
 * uvicorn 5 s, gunicorn 2 s, nginx 75 s) just as the client sends the next request on it, and the
 * request dies with ECONNRESET / "other side closed" before any answer. fetch's default agent keeps
 * sockets for the market's advertised `Keep-Alive: timeout` less 2 s, or 4 s without one, with
 * timers that are coarse (≈1 s) and late under load, so on a busy machine it loses that race against
 * a 5 s server now and then. Nothing the market did was wrong.
 */
import { Agent } from 'undici';

/**
 * Idle sockets are dropped after this, well inside any common server's keep-alive timeout. Under
 * 1 s undici uses a precise timer; a new connection to a market costs far less than a lost request.
 */
export const CLIENT_KEEP_ALIVE_MS = 500;

let agent: Agent | undefined;

/** The dispatcher certify's default fetch sends through (one per process, idle sockets unref'd). */
export function marketDispatcher(): Agent {
  agent ??= new Agent({
    keepAliveTimeout: CLIENT_KEEP_ALIVE_MS,
    // Also caps a longer `Keep-Alive: timeout=…` the market advertises.
    keepAliveMaxTimeout: CLIENT_KEEP_ALIVE_MS,
  });
  return agent;
}

/** Codes of a connection that died under a request: the market may never have seen it. */
const RESET_CODES = new Set(['ECONNRESET', 'EPIPE', 'UND_ERR_SOCKET']);

/** Whether `error` (from fetch, before any answer) is a connection reset rather than e.g. a timeout. */
export function isConnectionReset(error: unknown): boolean {
  const cause = (error as { cause?: { code?: unknown } } | undefined)?.cause;
  const code = cause?.code ?? (error as { code?: unknown } | undefined)?.code;
  return typeof code === 'string' && RESET_CODES.has(code);
}

/**
 * Whether the protocol lets a lost request be sent again: reads, and writes that carry an
 * `Idempotency-Key` (a receiver answers a repeat with the first answer). A POST without one is
 * never repeated: it could create a second order.
 */
export function safeToRepeat(method: string, headers: Record<string, string>): boolean {
  if (['GET', 'HEAD', 'OPTIONS'].includes(method.toUpperCase())) return true;
  return Object.entries(headers).some(
    ([name, value]) => name.toLowerCase() === 'idempotency-key' && value !== '',
  );
}

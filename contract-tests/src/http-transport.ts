/**
 * How certify reaches a market over the network (node:http), built for two races a market may
 * win without doing anything wrong:
 *
 * - An early answer. RFC 9110 lets a server answer before it has read the request body (a 413 for
 *   an oversized one, typically) and close the connection. The client's write of the rest of the
 *   body then fails (EPIPE, ECONNRESET) while the answer is already on the socket. fetch, and
 *   node:http as it comes, report the write error and drop the answer whenever they notice the
 *   failed write first; here the read side decides (readsAfterWriteFails), so the answer is read.
 * - Keep-alive. A kept-alive connection sits idle, the market closes it (Node 5 s, uvicorn 5 s,
 *   gunicorn 2 s) just as the next request goes out on it, and the request dies before any answer.
 *   Idle sockets are dropped after CLIENT_KEEP_ALIVE_MS, well inside any common server's timeout,
 *   and ContractHttp sends a request lost that way once more where that is harmless (safeToRepeat).
 */
import { type Agent, Agent as HttpAgent, request as httpRequest, type IncomingMessage } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import type { Socket } from 'node:net';
import type { TLSSocket } from 'node:tls';

/** A market's answer, read whole. */
export interface MarketAnswer {
  status: number;
  headers: Headers;
  text: string;
}

export interface MarketRequest {
  method: string;
  headers: Record<string, string>;
  body: string | Uint8Array | undefined;
  timeoutMs: number;
  /** One of requests sent together (ContractHttp.together): its last byte waits for the others. */
  together?: HeldLastByte;
}

/**
 * Last-byte synchronisation, for requests that race. A market cannot act on a request before its
 * last byte, so each racer's connection is opened and its request written but for that byte
 * (`held` says so), and the last bytes all go out when `release` settles (together.ts): the racers
 * reach the market within one write of each other, whatever connecting and sending each cost.
 * Sent as they came, five creates reached a market one connection at a time, milliseconds apart:
 * wider than a database round trip, the window a lookup-then-insert market leaves open.
 */
export interface HeldLastByte {
  /** The request is written but for its last byte (or could not be held, or failed): called once or more. */
  held(): void;
  /** Settles when every racer is held. */
  release: Promise<void>;
}

/** Sends one request and reads its whole answer (ContractHttp's seam for in-process markets). */
export type MarketTransport = (url: string, request: MarketRequest) => Promise<MarketAnswer>;

/**
 * Idle sockets are dropped after this (Node's agent also honours a shorter `Keep-Alive: timeout`
 * the market advertises). A new connection to a market costs far less than a lost request.
 */
export const CLIENT_KEEP_ALIVE_MS = 500;

/** A request that got no whole answer; `answerStarted` when some of one had arrived. */
export class MarketConnectionError extends Error {
  readonly code: string | undefined;
  readonly answerStarted: boolean;
  constructor(cause: unknown, answerStarted: boolean) {
    const error = cause instanceof Error ? cause : new Error(String(cause));
    super(error.message, { cause });
    this.name = error.name;
    this.code = (error as { code?: unknown }).code as string | undefined;
    this.answerStarted = answerStarted;
  }
}

/** Sockets whose write side failed: never kept for another request, whatever the answer said. */
const writeFailed = new WeakSet<Socket>();

/**
 * A write that fails because the market closed the connection (EPIPE, ECONNRESET) no longer ends
 * the exchange: the read side does. A market that answered early and closed has its answer on the
 * socket, readable, while the rest of the body cannot be written; Node would destroy the socket on
 * the write error, unread, whenever the failed write is processed before the arrived answer. The
 * read side still ends in the reset (ECONNRESET) or the close when no answer came, so a market that
 * closed without answering fails as before. (Stream implementers' `_write`/`_writev`, per socket.)
 */
function readsAfterWriteFails(socket: Socket): Socket {
  type Done = (error?: Error | null) => void;
  const pass = (done: Done) => (error?: Error | null) => {
    if (!isConnectionReset(error)) return done(error);
    writeFailed.add(socket);
    done(null);
  };
  const write = socket._write.bind(socket);
  socket._write = (chunk: unknown, encoding: BufferEncoding, done: Done) =>
    write(chunk, encoding, pass(done));
  const writev = socket._writev?.bind(socket);
  if (writev) {
    socket._writev = (chunks: { chunk: unknown; encoding: BufferEncoding }[], done: Done) =>
      writev(chunks, pass(done));
  }
  return socket;
}

/** What fetch would have added, so a market sees the same request as before this transport. */
function withFetchDefaults(request: MarketRequest): Record<string, string> {
  const headers = { ...request.headers };
  const has = (name: string) => Object.keys(headers).some((h) => h.toLowerCase() === name);
  if (!has('accept')) headers.accept = '*/*';
  if (typeof request.body === 'string' && !has('content-type')) {
    headers['content-type'] = 'text/plain;charset=UTF-8';
  }
  return headers;
}

function answerHeaders(message: IncomingMessage): Headers {
  const headers = new Headers();
  const raw = message.rawHeaders;
  for (let i = 0; i + 1 < raw.length; i += 2) headers.append(raw[i]!, raw[i + 1]!);
  return headers;
}

export interface NetworkTransportOptions {
  /** How long an idle connection is kept for the next request; default CLIENT_KEEP_ALIVE_MS. */
  keepAliveMs?: number;
  /** Connections per market at most; default unlimited. */
  maxSockets?: number;
}

/** node:http(s) with its own keep-alive agents: an answer is read even when the write side failed first. */
export function createNetworkTransport(options: NetworkTransportOptions = {}): MarketTransport {
  const agentOptions = {
    keepAlive: true,
    timeout: options.keepAliveMs ?? CLIENT_KEEP_ALIVE_MS,
    ...(options.maxSockets !== undefined && { maxSockets: options.maxSockets }),
  };
  // Idle sockets are unref'd by the agent, so they never keep a process alive.
  const agents = { http: new HttpAgent(agentOptions), https: new HttpsAgent(agentOptions) };
  for (const agent of Object.values(agents)) {
    const connect = agent.createConnection.bind(agent) as (...args: unknown[]) => Socket;
    agent.createConnection = (...args: unknown[]) => readsAfterWriteFails(connect(...args));
    const keep = agent.keepSocketAlive.bind(agent);
    agent.keepSocketAlive = (socket) => !writeFailed.has(socket as Socket) && keep(socket);
  }
  return (url, request) => {
    const agent = url.startsWith('https:') ? agents.https : agents.http;
    // With a connection limit, a held racer could occupy the connection another racer waits for,
    // and none would ever be released: racers are sent as they come.
    if (request.together !== undefined && options.maxSockets !== undefined) {
      request.together.held();
      return send(url, { ...request, together: undefined }, agent);
    }
    return send(url, request, agent);
  };
}

/** The transport certify uses unless given a market's fetch. */
export const sendOverNetwork: MarketTransport = createNetworkTransport();

function send(url: string, request: MarketRequest, agent: Agent): Promise<MarketAnswer> {
  return new Promise<MarketAnswer>((resolve, reject) => {
    const target = new URL(url);
    let answer: IncomingMessage | undefined;
    let bytesReadBefore = 0;
    let settled = false;
    const settle = (outcome: () => void) => {
      if (settled) return;
      settled = true;
      clearTimeout(deadline);
      outcome();
    };
    const outgoing = (target.protocol === 'https:' ? httpsRequest : httpRequest)(target, {
      method: request.method,
      headers: withFetchDefaults(request),
      agent,
      // Overrides the agent's idle timeout while this request is in flight.
      timeout: request.timeoutMs,
    });
    const fail = (error: unknown) => {
      const started = answer !== undefined || (outgoing.socket?.bytesRead ?? 0) > bytesReadBefore;
      // A racer that failed before it was held must not keep the others waiting.
      request.together?.held();
      settle(() => reject(new MarketConnectionError(error, started)));
    };
    const deadline = setTimeout(() => {
      const late = new Error(`no answer within ${request.timeoutMs} ms`);
      fail(late);
      outgoing.destroy(late);
    }, request.timeoutMs);
    outgoing.on('socket', (socket) => {
      bytesReadBefore = socket.bytesRead;
    });
    outgoing.on('response', (message) => {
      answer = message;
      const chunks: Buffer[] = [];
      message.on('data', (chunk: Buffer) => chunks.push(chunk));
      message.on('end', () => {
        // An answer before the whole body was sent: the connection cannot carry another request.
        if (!outgoing.writableFinished) outgoing.destroy();
        settle(() =>
          resolve({
            status: message.statusCode ?? 0,
            headers: answerHeaders(message),
            text: new TextDecoder().decode(Buffer.concat(chunks)),
          }),
        );
      });
      message.on('error', fail);
      // Closed before its end: the connection went away in the middle of the answer.
      message.on('close', () => {
        if (!message.complete) fail(new Error('the connection closed in the middle of the answer'));
      });
    });
    outgoing.on('error', (error) => {
      // An answer that has begun decides the outcome: the write side failing under it (the market
      // answered early and closed) does not make a whole answer any less whole.
      if (answer === undefined) fail(error);
    });
    outgoing.on('close', () => {
      if (answer === undefined) fail(new Error('the connection closed without an answer'));
    });
    const body = request.body === undefined ? undefined : Buffer.from(request.body);
    const { together } = request;
    if (together === undefined) {
      outgoing.end(body);
      return;
    }
    const sendOnRelease = (rest: Buffer | undefined) =>
      void together.release.then(() => {
        if (!outgoing.destroyed) outgoing.end(rest);
      });
    if (body === undefined || body.length < 2) {
      // No body byte to hold back (node:http cannot withhold part of a head): the connection is
      // opened now and the whole request written on release.
      outgoing.once('socket', (socket) => {
        // A new TLS connection is ready for the request once its handshake is done.
        if (socket.connecting)
          socket.once((socket as TLSSocket).encrypted ? 'secureConnect' : 'connect', together.held);
        else together.held();
      });
      sendOnRelease(body);
      return;
    }
    // Its length given, so the body goes in two writes without chunked framing.
    if (!Object.keys(request.headers).some((name) => name.toLowerCase() === 'content-length'))
      outgoing.setHeader('content-length', body.length);
    // The write's callback runs once the bytes are handed to the connection, so connected.
    outgoing.write(body.subarray(0, -1), () => {
      together.held();
      sendOnRelease(body.subarray(-1));
    });
  });
}

/** Codes of a connection that died under a request. */
const RESET_CODES = new Set(['ECONNRESET', 'EPIPE', 'UND_ERR_SOCKET']);

/** Whether `error` is a connection reset (not e.g. a timeout or a refused connection). */
export function isConnectionReset(error: unknown): boolean {
  const own = (error as { code?: unknown } | undefined)?.code;
  const cause = (error as { cause?: { code?: unknown } } | undefined)?.cause?.code;
  return [own, cause].some((code) => typeof code === 'string' && RESET_CODES.has(code));
}

/**
 * Whether a reset lost the request before any byte of an answer: the market may never have seen
 * it. (fetch rejects only before an answer's head; a body cut short fails later, in reading.)
 */
export function lostBeforeAnswer(error: unknown): boolean {
  return isConnectionReset(error) && !(error instanceof MarketConnectionError && error.answerStarted);
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

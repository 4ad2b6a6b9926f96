/**
 * The keep-alive race behind a rare ECONNRESET on `POST /orders` under load: the market closes an
 * idle kept-alive connection just as certify sends the next request on it. Reproduced without
 * timing: the markets below destroy a connection when a request arrives on it.
 */
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { describe, expect, it } from 'vitest';
import { ContractHttp } from '../src/http.js';
import { createNetworkTransport, lostBeforeAnswer, type MarketTransport } from '../src/http-transport.js';
import { localMarket } from './support/local-market.js';

interface Market {
  url: string;
  server: Server;
  /** Requests that reached the handler (a destroyed one counts too). */
  requests: number;
  connections: number;
  resets: number;
}

/** A market whose `reset(nth)` decides, per request on a connection, whether to destroy it. */
async function market(reset: (requestsOnSocket: number) => boolean): Promise<Market> {
  const perSocket = new WeakMap<Socket, number>();
  const state = { requests: 0, connections: 0, resets: 0 };
  const { server, url } = await localMarket((req: IncomingMessage, res: ServerResponse) => {
    state.requests += 1;
    const n = (perSocket.get(req.socket) ?? 0) + 1;
    perSocket.set(req.socket, n);
    if (reset(n)) {
      state.resets += 1;
      req.socket.destroy();
      return;
    }
    req.resume();
    req.on('end', () => {
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify({ method: req.method }));
    });
  });
  // Advertises a long keep-alive, so a client that reuses the socket has every reason to.
  server.keepAliveTimeout = 60_000;
  server.on('connection', () => {
    state.connections += 1;
  });
  return Object.assign(state, { url, server });
}

/**
 * A client that certainly reuses its kept-alive socket (the race needs that, not a clock): one
 * connection per market, kept a minute, so the next request waits for it rather than opening another.
 */
const reusing = (): MarketTransport => createNetworkTransport({ keepAliveMs: 60_000, maxSockets: 1 });

/** The market closes a kept-alive connection as the next request arrives on it. */
const closesIdleConnection = (n: number) => n === 2;

describe('a kept-alive connection the market closes as a request goes out', () => {
  it('loses that request in the bare transport (the race), before any answer', async () => {
    const m = await market(closesIdleConnection);
    const send = reusing();
    const request = { method: 'GET', headers: {}, body: undefined, timeoutMs: 5_000 };
    expect((await send(m.url, request)).text).toBe('{"method":"GET"}');
    const lost = await send(m.url, request).catch((error: unknown) => error);
    expect(lostBeforeAnswer(lost)).toBe(true);
    expect(m.connections).toBe(1);
  });

  it('is sent once more on a new connection when it is a read', async () => {
    const m = await market(closesIdleConnection);
    const http = new ContractHttp({ transport: reusing(), timeoutMs: 5_000 });
    await http.send(m.url);
    const answer = await http.send(m.url);
    expect(answer.json()).toEqual({ method: 'GET' });
    expect({ resets: m.resets, connections: m.connections, requests: m.requests }).toEqual({
      resets: 1,
      connections: 2,
      requests: 3,
    });
  });

  it('is sent once more when it carries an Idempotency-Key', async () => {
    const m = await market(closesIdleConnection);
    const http = new ContractHttp({ transport: reusing(), timeoutMs: 5_000 });
    await http.send(m.url);
    const answer = await http.send(m.url, { json: {}, headers: { 'Idempotency-Key': 'k-1' } });
    expect(answer.json()).toEqual({ method: 'POST' });
    expect(m.resets).toBe(1);
  });

  it('is never repeated when it is a POST without an Idempotency-Key (it could create a second order)', async () => {
    const m = await market(closesIdleConnection);
    const http = new ContractHttp({ transport: reusing(), timeoutMs: 5_000 });
    await http.send(m.url);
    await expect(http.send(m.url, { json: {} })).rejects.toThrow(
      /no answer .*the market closed the connection without a complete answer/,
    );
    expect(m.requests).toBe(2);
  });

  it('is never repeated once part of an answer has arrived', async () => {
    let requests = 0;
    const { url } = await localMarket((req) => {
      requests += 1;
      // Some bytes of an answer's head, then the connection gone: the market did see this request.
      req.socket.end('HTTP/1.1 200 OK\r\ncontent-le', () => req.socket.destroy());
    });
    const http = new ContractHttp({ timeoutMs: 5_000 });
    await expect(http.send(url)).rejects.toThrow(
      /no answer \(Error: socket hang up \(ECONNRESET\)\); the market closed the connection without a complete answer$/,
    );
    expect(requests).toBe(1);
  });
});

describe("certify's own keep-alive", () => {
  it('drops an idle connection itself, before a Node market (5 s) would', async () => {
    const m = await market(() => false);
    const closedByClient = new Promise<number>((resolve) => {
      m.server.once('connection', (socket: Socket) => {
        const opened = performance.now();
        // The market keeps it 60 s; an `end` from the client is certify letting go.
        socket.once('end', () => resolve(performance.now() - opened));
      });
    });
    const http = new ContractHttp({ timeoutMs: 5_000 });
    await http.send(m.url);
    // Event-driven: resolves when the client closes; the test's own timeout is the failure.
    expect(await closedByClient).toBeLessThan(5_000);
  }, 10_000);
});

describe('a market that resets every connection', () => {
  const everyRequest = () => true;

  it('fails a read after one repeat, and says so', async () => {
    const m = await market(everyRequest);
    const http = new ContractHttp({ timeoutMs: 5_000 });
    await expect(http.send(m.url)).rejects.toThrow(
      /expected an HTTP answer from GET .*; got no answer \(Error: socket hang up \(ECONNRESET\)\); sent twice, the first connection having been reset before any answer/,
    );
    expect(m.requests).toBe(2);
  });

  it('fails a POST at once, and says the market closed the connection', async () => {
    const m = await market(everyRequest);
    const http = new ContractHttp({ timeoutMs: 5_000 });
    await expect(http.send(m.url, { json: { a: 1 } })).rejects.toThrow(
      /expected an HTTP answer from POST .*; got no answer \(Error: socket hang up \(ECONNRESET\)\); the market closed the connection without a complete answer/,
    );
    expect(m.requests).toBe(1);
  });
});

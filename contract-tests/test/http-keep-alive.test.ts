/**
 * The keep-alive race behind a rare ECONNRESET on `POST /orders` under load: the market closes an
 * idle kept-alive connection just as certify sends the next request on it. Reproduced without
 * timing: the servers below destroy a connection when a request arrives on it.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { Agent } from 'undici';
import { afterEach, describe, expect, it } from 'vitest';
import { ContractHttp } from '../src/http.js';
import { isConnectionReset } from '../src/http-transport.js';

interface Market {
  url: string;
  server: Server;
  /** Requests that reached the handler (a destroyed one counts too). */
  requests: number;
  connections: number;
  resets: number;
}

const servers: Server[] = [];
const agents: Agent[] = [];

afterEach(async () => {
  for (const agent of agents.splice(0)) await agent.close();
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
});

/** A market whose `reset(socket, nth)` decides, per request, whether to destroy the connection. */
async function market(reset: (requestsOnSocket: number) => boolean): Promise<Market> {
  const perSocket = new WeakMap<Socket, number>();
  const state = { requests: 0, connections: 0, resets: 0 };
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
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
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/orders`;
  return Object.assign(state, { url, server }) as Market;
}

/**
 * A client that certainly reuses its kept-alive socket (the race needs that, not a clock): one
 * connection per origin, so the next request waits for it rather than opening another.
 */
function reusingFetch(): typeof fetch {
  const agent = new Agent({ connections: 1, keepAliveTimeout: 60_000, keepAliveMaxTimeout: 60_000 });
  agents.push(agent);
  return (input, init) => fetch(input, { ...init, dispatcher: agent } as RequestInit);
}

/** The market closes a kept-alive connection as the next request arrives on it. */
const closesIdleConnection = (n: number) => n === 2;

describe('a kept-alive connection the market closes as a request goes out', () => {
  it('loses that request in plain fetch (the race)', async () => {
    const m = await market(closesIdleConnection);
    const send = reusingFetch();
    expect(await (await send(m.url)).text()).toBe('{"method":"GET"}');
    const lost = await send(m.url).catch((error: unknown) => error);
    expect(isConnectionReset(lost)).toBe(true);
    expect(m.connections).toBe(1);
  });

  it('is sent once more on a new connection when it is a read', async () => {
    const m = await market(closesIdleConnection);
    const http = new ContractHttp({ fetch: reusingFetch(), timeoutMs: 5_000 });
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
    const http = new ContractHttp({ fetch: reusingFetch(), timeoutMs: 5_000 });
    await http.send(m.url);
    const answer = await http.send(m.url, { json: {}, headers: { 'Idempotency-Key': 'k-1' } });
    expect(answer.json()).toEqual({ method: 'POST' });
    expect(m.resets).toBe(1);
  });

  it('is never repeated when it is a POST without an Idempotency-Key (it could create a second order)', async () => {
    const m = await market(closesIdleConnection);
    const http = new ContractHttp({ fetch: reusingFetch(), timeoutMs: 5_000 });
    await http.send(m.url);
    await expect(http.send(m.url, { json: {} })).rejects.toThrow(
      /no answer .*the market closed the connection without a complete answer/,
    );
    expect(m.requests).toBe(2);
  });
});

describe("certify's own keep-alive", () => {
  it('drops an idle connection itself, well before a 2 s server would', async () => {
    const m = await market(() => false);
    const closedByClient = new Promise<number>((resolve) => {
      m.server.once('connection', (socket: Socket) => {
        const opened = performance.now();
        // The server keeps it 60 s; an `end` from the client is certify letting go.
        socket.once('end', () => resolve(performance.now() - opened));
      });
    });
    const http = new ContractHttp({ timeoutMs: 5_000 });
    await http.send(m.url);
    // Event-driven: resolves when the client closes; the test's own timeout is the failure.
    expect(await closedByClient).toBeLessThan(2_000);
  }, 10_000);
});

describe('a market that resets every connection', () => {
  const everyRequest = () => true;

  it('fails a read after one repeat, and says so', async () => {
    const m = await market(everyRequest);
    const http = new ContractHttp({ timeoutMs: 5_000 });
    await expect(http.send(m.url)).rejects.toThrow(
      /expected an HTTP answer from GET .*; got no answer \(TypeError: fetch failed.*\); sent twice, the first connection having been reset before any answer/,
    );
    expect(m.requests).toBe(2);
  });

  it('fails a POST at once, and says the market closed the connection', async () => {
    const m = await market(everyRequest);
    const http = new ContractHttp({ timeoutMs: 5_000 });
    await expect(http.send(m.url, { json: { a: 1 } })).rejects.toThrow(
      /expected an HTTP answer from POST .*; got no answer \(TypeError: fetch failed.*\); the market closed the connection without a complete answer/,
    );
    expect(m.requests).toBe(1);
  });
});

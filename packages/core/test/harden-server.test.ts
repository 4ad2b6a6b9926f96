// Silent connections and connection floods against a hardened Node server: driven by the sockets'
// own events (a short configured timeout, then the 'close' event), never by sleeping.
import { once } from 'node:events';
import { Agent, createServer, get, type Server } from 'node:http';
import { type AddressInfo, connect, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { hardenServer, RECOMMENDED_SERVER_LIMITS } from '../src/node.js';

let server: Server | undefined;
const sockets: Socket[] = [];
afterEach(async () => {
  for (const socket of sockets.splice(0)) socket.destroy();
  server?.closeAllConnections();
  await new Promise((resolve) => server?.close(resolve));
  server = undefined;
});

async function start(
  handler: Parameters<typeof createServer>[1],
  options: Parameters<typeof hardenServer>[1],
): Promise<{ port: number; closed: string[] }> {
  const closed: string[] = [];
  server = createServer(handler);
  hardenServer(server, { ...options, onConnectionClosed: (reason) => closed.push(reason) });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return { port: (server.address() as AddressInfo).port, closed };
}

/** A raw TCP connection that has been accepted by the server. */
async function open(port: number): Promise<Socket> {
  const socket = connect(port, '127.0.0.1');
  sockets.push(socket);
  socket.on('error', () => {});
  await once(socket, 'connect');
  return socket;
}

function healthz(port: number, agent: Agent): Promise<number> {
  return new Promise((resolve, reject) => {
    get({ port, host: '127.0.0.1', path: '/healthz', agent }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    }).on('error', reject);
  });
}

describe('hardenServer', () => {
  it('closes a connection that never sends a byte after the idle timeout', async () => {
    const { port, closed } = await start((_req, res) => res.end('ok'), { idleTimeoutMs: 150 });
    const silent = await open(port);
    const received: Buffer[] = [];
    silent.on('data', (chunk: Buffer) => received.push(chunk));
    await once(silent, 'close');
    expect(Buffer.concat(received).length).toBe(0);
    expect(closed).toEqual(['idle']);
  });

  it('never cuts a request in flight for being idle (the request timeout bounds it)', async () => {
    let release!: () => void;
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    const { port } = await start(
      (_req, res) => {
        void held.then(() => res.end('late'));
      },
      { idleTimeoutMs: 150, requestTimeoutMs: 60_000 },
    );
    const answer = new Promise<string>((resolve, reject) => {
      get({ port, host: '127.0.0.1', path: '/slow', agent: false }, (res) => {
        let text = '';
        res.on('data', (chunk) => {
          text += chunk;
        });
        res.on('end', () => resolve(text));
      }).on('error', reject);
    });
    // A silent neighbour is closed for idleness while the slow request is still waiting.
    const silent = await open(port);
    await once(silent, 'close');
    release();
    expect(await answer).toBe('late');
  });

  it('at the cap, closes the oldest idle or header-pending connection so a new client gets /healthz', async () => {
    const { port, closed } = await start((_req, res) => res.end('ok'), {
      maxConnections: 3,
      idleTimeoutMs: 60_000,
      keepAliveTimeoutMs: 60_000,
      headersTimeoutMs: 60_000,
    });
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    const newcomers: Agent[] = [];
    try {
      const silent = await open(port); // the oldest: never sends a byte
      const silentClosed = once(silent, 'close');
      const slowloris = await open(port);
      const slowlorisClosed = once(slowloris, 'close');
      slowloris.write('GET /healthz HTTP/1.1\r\nHost: x\r\n'); // headers never finished
      expect(await healthz(port, agent)).toBe(200); // a kept-alive connection, idle now
      // The cap's worth is open; each newcomer (kept alive too) gets served, the oldest idle make room.
      for (let i = 0; i < 5; i++) {
        newcomers.push(new Agent({ keepAlive: true, maxSockets: 1 }));
        expect(await healthz(port, newcomers[i]!)).toBe(200);
      }
      await silentClosed;
      await slowlorisClosed;
      expect(closed.length).toBeGreaterThanOrEqual(2);
      expect(new Set(closed)).toEqual(new Set(['max_connections']));
    } finally {
      agent.destroy();
      for (const a of newcomers) a.destroy();
    }
  });

  it('never closes a connection with a request in flight to make room: then the newcomer is refused', async () => {
    let release!: () => void;
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    let arrived!: () => void;
    const inFlight = new Promise<void>((resolve) => {
      arrived = resolve;
    });
    const { port, closed } = await start(
      (req, res) => {
        if (req.url === '/slow') {
          arrived();
          void held.then(() => res.end('late'));
        } else res.end('ok');
      },
      { maxConnections: 1, idleTimeoutMs: 60_000 },
    );
    const answer = new Promise<string>((resolve, reject) => {
      get({ port, host: '127.0.0.1', path: '/slow', agent: false }, (res) => {
        let text = '';
        res.on('data', (chunk) => {
          text += chunk;
        });
        res.on('end', () => resolve(text));
      }).on('error', reject);
    });
    await inFlight;
    const newcomer = await open(port);
    await once(newcomer, 'close');
    expect(closed).toEqual(['max_connections']);
    release();
    expect(await answer).toBe('late');
  });

  it('applies the recommended limits unless told otherwise, and refuses nonsense', () => {
    server = createServer();
    const limits = hardenServer(server, { maxConnections: 5 });
    expect(limits).toEqual({ ...RECOMMENDED_SERVER_LIMITS, maxConnections: 5 });
    expect(server.timeout).toBe(RECOMMENDED_SERVER_LIMITS.idleTimeoutMs);
    expect(server.requestTimeout).toBe(RECOMMENDED_SERVER_LIMITS.requestTimeoutMs);
    expect(() => hardenServer(createServer(), { idleTimeoutMs: 0 })).toThrow(RangeError);
  });
});

/**
 * Issue 20 §3: silent TCP connections were never closed, and enough of them exhausted the file
 * descriptors until /healthz failed. The reference servers close a connection that stays silent
 * for IDLE_TIMEOUT_MS; at MAX_CONNECTIONS a new connection closes the oldest one with no request in
 * flight (issue 34: slow or silent clients kept /healthz out), and only when every open connection
 * has a request in flight is the newcomer refused. Driven by socket events, never by sleeping. The limits live on the Node
 * server around the framework (core's `hardenServer`, tested on its own in core), so one framework
 * is enough here.
 */
import { once } from 'node:events';
import { connect, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { removeDir, startTestServer, type TestServer } from './helpers/servers.js';

const MAX_CONNECTIONS = 3;

describe('reference server: idle connections and the connection cap', () => {
  let server: TestServer;
  const sockets: Socket[] = [];
  async function open(): Promise<{ socket: Socket; received: () => string }> {
    const { port, hostname } = new URL(server.url);
    const socket = connect(Number(port), hostname);
    sockets.push(socket);
    const chunks: Buffer[] = [];
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('error', () => {});
    await once(socket, 'connect');
    return { socket, received: () => Buffer.concat(chunks).toString() };
  }
  /**
   * A connection with a request in flight: its body is still arriving. `Expect: 100-continue` makes
   * the server say when it has the headers (a connection still sending them has no request in
   * flight yet, and is the first to make room at the cap).
   */
  async function busy(): Promise<Socket> {
    const { socket } = await open();
    const parsed = once(socket, 'data');
    socket.write(
      `POST /v1/orders HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${server.marketApiToken.reveal()}\r\n` +
        'Content-Type: application/json\r\nContent-Length: 2\r\nExpect: 100-continue\r\n\r\n',
    );
    expect(String((await parsed)[0])).toMatch(/^HTTP\/1\.1 100 /);
    socket.write('{');
    return socket;
  }

  beforeAll(async () => {
    server = await startTestServer({
      mode: 'basic',
      framework: 'hono',
      env: { IDLE_TIMEOUT_MS: '200', MAX_CONNECTIONS: String(MAX_CONNECTIONS) },
    });
  });
  afterAll(async () => {
    for (const socket of sockets) socket.destroy();
    await server.close();
    await removeDir(server.dataDir);
  });

  it('closes a connection that sends nothing after IDLE_TIMEOUT_MS, without a byte', async () => {
    const silent = await open();
    await once(silent.socket, 'close');
    expect(silent.received()).toBe('');
  });

  it('refuses connections past MAX_CONNECTIONS; an open one is still served, /healthz included', async () => {
    const existing = await busy();
    for (let i = 1; i < MAX_CONNECTIONS; i++) await busy();
    // Full: a new connection is closed without an answer, even to a request sent at once.
    const refused = await open();
    refused.socket.write('GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n');
    await once(refused.socket, 'close');
    expect(refused.received()).toBe('');
    // The existing connection finishes its request and asks for /healthz on the same socket.
    const answers = new Promise<string>((resolve) => {
      const chunks: Buffer[] = [];
      existing.on('data', (chunk: Buffer) => chunks.push(chunk));
      existing.on('close', () => resolve(Buffer.concat(chunks).toString()));
    });
    existing.write('}GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n');
    const text = await answers;
    expect(text).toMatch(/^HTTP\/1\.1 400 /);
    expect(text).toMatch(/\r\n\r\n[\s\S]*HTTP\/1\.1 200 /);
  });

  it('at MAX_CONNECTIONS slow header-pending connections make room: a new client gets /healthz', async () => {
    for (let i = 0; i < MAX_CONNECTIONS * 4; i++) {
      const { socket } = await open();
      socket.write('GET /healthz HTTP/1.1\r\nHost: x\r\n'); // headers never finished
    }
    const client = await open();
    const closed = once(client.socket, 'close');
    client.socket.write('GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n');
    await closed;
    expect(client.received()).toMatch(/^HTTP\/1\.1 200 /);
  });
});

describe('reference server at full size: the default MAX_CONNECTIONS (800)', () => {
  let server: TestServer;
  const sockets: Socket[] = [];

  beforeAll(async () => {
    server = await startTestServer({ mode: 'basic', framework: 'hono' });
  });
  afterAll(async () => {
    for (const socket of sockets) socket.destroy();
    await server.close();
    await removeDir(server.dataDir);
  });

  it('1,200 slow clients (headers never finished) do not keep /healthz from a new client', async () => {
    const { port, hostname } = new URL(server.url);
    const opened: Promise<unknown>[] = [];
    for (let i = 0; i < 1_200; i++) {
      const socket = connect(Number(port), hostname);
      sockets.push(socket);
      socket.on('error', () => {});
      opened.push(once(socket, 'connect').then(() => socket.write('GET /healthz HTTP/1.1\r\nHost: x\r\n')));
    }
    await Promise.all(opened);
    const client = connect(Number(port), hostname);
    sockets.push(client);
    const chunks: Buffer[] = [];
    client.on('data', (chunk: Buffer) => chunks.push(chunk));
    const closed = once(client, 'close');
    await once(client, 'connect');
    client.write('GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n');
    await closed;
    expect(Buffer.concat(chunks).toString()).toMatch(/^HTTP\/1\.1 200 /);
  });
});

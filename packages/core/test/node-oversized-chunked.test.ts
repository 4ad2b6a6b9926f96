/**
 * Issue 34: a 50 MB chunked upload (no Content-Length, so nothing can be refused up front) gets its
 * 413 before the connection closes. The bridge used to cut the connection off once the client had
 * sent four times the cap, destroying the socket with the 413 still unread by a client that was
 * busy writing (a reset loses what the kernel had not delivered yet).
 */
import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import { type AddressInfo, connect } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { createNodeListener } from '../src/node.js';
import { makeMarket } from './market-support.js';

const servers: Server[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});

/** Sends `totalBytes` as a chunked body on a raw socket; resolves with what the server answered. */
async function chunkedUpload(port: number, path: string, totalBytes: number): Promise<string> {
  const socket = connect(port, '127.0.0.1');
  await once(socket, 'connect');
  let answer = '';
  let closed = false;
  socket.on('error', () => {});
  const ended = new Promise<void>((resolve) =>
    socket.on('close', () => {
      closed = true;
      resolve();
    }),
  );
  socket.write(
    `POST ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n`,
  );
  const chunk = Buffer.alloc(64 * 1024, 0x61);
  const frame = Buffer.concat([Buffer.from(`${chunk.length.toString(16)}\r\n`), chunk, Buffer.from('\r\n')]);
  // Like curl or a simple client: upload the whole body, and only then read the answer.
  for (let sent = 0; sent < totalBytes && !closed; sent += chunk.length) {
    if (!socket.write(frame)) await Promise.race([once(socket, 'drain').catch(() => {}), ended]);
  }
  if (!closed) socket.write('0\r\n\r\n');
  const answered = new Promise<void>((resolve) =>
    socket.on('data', (data: Buffer) => {
      answer += data.toString('latin1');
      if (answer.includes('}')) resolve();
    }),
  );
  await Promise.race([ended, answered]);
  socket.destroy();
  return answer;
}

describe('an oversized chunked body', () => {
  it('gets its 413 before the connection closes (50 MB, 1 MB cap)', async () => {
    const { market } = await makeMarket();
    const server = createServer(createNodeListener(market, { maxBodyBytes: 1024 * 1024 }));
    servers.push(server);
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    const { port } = server.address() as AddressInfo;
    const answer = await chunkedUpload(port, '/v1/webhook', 50 * 1024 * 1024);
    expect(answer.slice(0, 12)).toBe('HTTP/1.1 413');
    expect(answer).toContain('payload_too_large');
  });
});

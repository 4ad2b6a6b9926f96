/**
 * Every package's tests load vitest.fetch.ts (vitest.shared.ts): global fetch must not reuse an
 * idle kept-alive connection, or a test on a busy machine can send on a connection the server is
 * closing and fail with ECONNRESET.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, expect, it } from 'vitest';

const server = createServer((_request, response) => response.end('ok'));
let connections = 0;
server.on('connection', () => connections++);
// The server would keep connections open, as the kit's servers do (5 s).
server.keepAliveTimeout = 5_000;
let url: string;

beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

it('global fetch in a test worker opens a new connection for each request', async () => {
  for (let i = 0; i < 3; i++) await expect((await fetch(url)).text()).resolves.toBe('ok');
  expect(connections).toBe(3);
});

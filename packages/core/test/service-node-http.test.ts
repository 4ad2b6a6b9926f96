/**
 * On Node the service client calls the service with Node's own http client (node-http-call.ts)
 * unless it is given a fetch. Each behaviour the client relies on is checked on both ways against
 * a real listening server, so the two cannot drift: what is sent (byte for byte), how the answer's
 * bytes become text, compression, kept-alive connections, a connection that dies, a caller that
 * gives up. Where they differ on purpose (redirects) the test says so.
 */
import { readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createTlsServer } from 'node:https';
import { type AddressInfo, createServer as createTcpServer, type Socket } from 'node:net';
import { brotliCompressSync, deflateSync, gzipSync } from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import { createServiceClient, type ServiceClient } from '../src/index.js';
import { kitErrorOf } from '../src/testing.js';
import { isNodeProper } from '../src/util/node-proper.js';
import { ORDERS, orderInput, TOKEN_BODY, wireServiceOrder } from './service-support.js';

const ORDER = JSON.stringify({ success: true, data: wireServiceOrder() });

interface Seen {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: Buffer;
}

type Answer = (req: IncomingMessage, res: ServerResponse) => void;

let server: Server | undefined;
const sockets = new Set<Socket>();
afterEach(async () => {
  for (const socket of sockets) socket.destroy();
  sockets.clear();
  await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  server = undefined;
});

/** A service that hands out a token and answers the order routes with `answer`. */
async function service(answer: Answer) {
  const seen: Seen[] = [];
  let connections = 0;
  server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      if (req.url === '/v1/token')
        return res.writeHead(200, { 'content-type': 'application/json' }).end(TOKEN_BODY);
      seen.push({
        method: req.method ?? '',
        url: req.url ?? '',
        headers: req.headers,
        body: Buffer.concat(chunks),
      });
      answer(req, res);
    });
  });
  server.on('connection', (socket) => {
    connections++;
    sockets.add(socket);
  });
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { baseUrl, seen, connections: () => connections };
}

function json(body: string | Buffer, headers: Record<string, string> = {}): Answer {
  return (_req, res) => res.writeHead(200, { 'content-type': 'application/json', ...headers }).end(body);
}

const TRANSPORTS = {
  'node:http (the default on Node)': {},
  'the runtime fetch, given': { fetch: globalThis.fetch },
} as const;

describe.each(Object.entries(TRANSPORTS))('the service client over %s', (_name, transport) => {
  const client = (baseUrl: string, timeoutMs = 2_000): ServiceClient =>
    createServiceClient({ baseUrl, apiKey: 'key-123456', retries: 0, timeoutMs, ...transport });

  it('sends the method, path, headers and the UTF-8 body byte for byte', async () => {
    const s = await service(json(ORDER));
    const input = { ...orderInput, referenceId: 'ref-ñ-🙂' };
    await client(s.baseUrl).createOrder(input);
    const [request] = s.seen;
    expect(request?.method).toBe('POST');
    expect(request?.url).toBe(ORDERS);
    expect(request?.headers.authorization).toBe('Bearer tok-1');
    expect(request?.headers['content-type']).toBe('application/json');
    expect(request?.headers['idempotency-key']).toMatch(/^create-order:/);
    const body = request?.body ?? Buffer.alloc(0);
    expect(Number(request?.headers['content-length'])).toBe(body.length);
    expect(JSON.parse(body.toString('utf8')).reference_id).toBe('ref-ñ-🙂');
  });

  it.each([
    ['gzip', gzipSync],
    ['deflate', deflateSync],
    ['br', brotliCompressSync],
  ] as const)('reads an answer compressed with %s', async (encoding, compress) => {
    const s = await service(json(compress(Buffer.from(ORDER)), { 'content-encoding': encoding }));
    expect((await client(s.baseUrl).getOrder('ord-1')).id).toBe('ord-1');
  });

  it('decodes the answer as Response.text() does: a byte-order mark dropped, bad bytes replaced', async () => {
    const s = await service(json(Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(ORDER)])));
    expect((await client(s.baseUrl).getOrder('ord-1')).id).toBe('ord-1');
    const broken = Buffer.from(JSON.stringify({ success: true, data: wireServiceOrder({ id: 'ord-@' }) }));
    broken[broken.indexOf('ord-@') + 4] = 0xff; // a byte that is never UTF-8, inside the id
    const t = await service(json(broken));
    expect((await client(t.baseUrl).getOrder('ord-1')).id).toBe('ord-\uFFFD');
  });

  it.each([
    ['plain', (b: Buffer) => b, {}],
    ['gzip', gzipSync, { 'content-encoding': 'gzip' }],
  ] as const)(
    'reports a %s answer cut off by a closed connection as unreachable',
    async (_kind, encode, headers) => {
      const whole = encode(Buffer.from(ORDER));
      const s = await service((_req, res) => {
        res.writeHead(200, {
          'content-type': 'application/json',
          'content-length': String(whole.length),
          ...headers,
        });
        res.write(whole.subarray(0, 20), () => res.socket?.destroy());
      });
      const error = await kitErrorOf(client(s.baseUrl).getOrder('ord-1'));
      expect(error.code).toBe('upstream_unavailable');
    },
  );

  it('reports a compressed answer that does not decompress as unreachable, and the next call gets through', async () => {
    let first = true;
    const s = await service((req, res) => {
      if (!first) return json(ORDER)(req, res);
      first = false;
      res
        .writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip' })
        .end('not gzip at all');
    });
    const c = client(s.baseUrl);
    expect((await kitErrorOf(c.getOrder('ord-1'))).code).toBe('upstream_unavailable');
    expect((await c.getOrder('ord-1')).id).toBe('ord-1');
  });

  // A pooled keep-alive socket the service closes as the client reuses it: the request dies with no
  // answer. Bun's fetch met this under load (a certification's create answered 503 three times).
  it('repeats a mutating call whose connection closed without an answer, with the same Idempotency-Key', async () => {
    let first = true;
    const s = await service((req, res) => {
      if (!first) return json(ORDER)(req, res);
      first = false;
      req.socket.destroy();
    });
    const c = createServiceClient({
      baseUrl: s.baseUrl,
      apiKey: 'key-123456',
      retries: 1,
      sleep: async () => {},
      ...transport,
    });
    expect((await c.createOrder(orderInput)).id).toBe('ord-1');
    expect(s.seen.map((r) => r.method)).toEqual(['POST', 'POST']);
    expect(s.seen[1]?.headers['idempotency-key']).toBe(s.seen[0]?.headers['idempotency-key']);
  });

  it('reports a refused connection as unreachable', async () => {
    const s = await service(json(ORDER));
    await new Promise<void>((resolve) => server!.close(() => resolve()));
    for (const socket of sockets) socket.destroy();
    server = undefined;
    const error = await kitErrorOf(client(s.baseUrl).getOrder('ord-1'));
    expect(error.code).toBe('upstream_unavailable');
  });

  it("ends at once with the caller's reason when the caller aborts in the middle of the body", async () => {
    const controller = new AbortController();
    const s = await service((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('{"success":', () => controller.abort(new Error('caller gave up')));
    });
    await expect(client(s.baseUrl, 60_000).getOrder('ord-1', { signal: controller.signal })).rejects.toThrow(
      'caller gave up',
    );
  });

  it('times out a body that never ends, and the next call still gets through', async () => {
    let first = true;
    const s = await service((_req, res) => {
      if (first) {
        first = false;
        res.writeHead(200, { 'content-type': 'application/json' }).write('{"success":');
        return;
      }
      json(ORDER)(_req, res);
    });
    const c = client(s.baseUrl, 150);
    expect((await kitErrorOf(c.getOrder('ord-1'))).code).toBe('upstream_timeout');
    expect((await c.getOrder('ord-1')).id).toBe('ord-1');
  });
});

describe('node:http, where it differs from fetch', () => {
  it("keeps one connection alive for a client's calls, the token's included (fetch may open more)", async () => {
    const s = await service(json(ORDER));
    const c = createServiceClient({ baseUrl: s.baseUrl, apiKey: 'key-123456' });
    for (let i = 0; i < 4; i++) await c.getOrder('ord-1');
    expect(s.seen).toHaveLength(4);
    expect(s.connections()).toBe(1);
  });

  it('does not follow a redirect: the 3xx is the answer, with its status', async () => {
    const s = await service((_req, res) => res.writeHead(302, { location: '/elsewhere' }).end());
    const c = createServiceClient({ baseUrl: s.baseUrl, apiKey: 'key-123456', retries: 0 });
    const error = await kitErrorOf(c.getOrder('ord-1'));
    expect(error.extensions?.upstream_status).toBe(302);
    expect(s.seen.map((r) => r.url)).toEqual([`${ORDERS}/ord-1`]);
  });

  it('is what the client uses on Node when given no fetch (fetch sends Sec-Fetch-Mode, node:http does not)', async () => {
    const s = await service(json(ORDER));
    await createServiceClient({ baseUrl: s.baseUrl, apiKey: 'key-123456' }).getOrder('ord-1');
    await createServiceClient({ baseUrl: s.baseUrl, apiKey: 'key-123456', fetch: globalThis.fetch }).getOrder(
      'ord-1',
    );
    expect(s.seen.map((r) => r.headers['sec-fetch-mode'])).toEqual([undefined, 'cors']);
  });
});

describe('node:http and a kept-alive connection the service closes', () => {
  /**
   * A service (raw TCP, HTTP/1.1 by hand) that answers the first request on each connection and
   * resets the connection on the second without answering: from the client's side exactly the race
   * of a kept-alive connection closed by the service as the next request goes out.
   */
  async function resettingService() {
    let connections = 0;
    const tcp = createTcpServer((socket) => {
      connections++;
      sockets.add(socket);
      let seen = '';
      let answered = 0;
      socket.on('data', (chunk) => {
        seen += chunk.toString('latin1');
        while (seen.includes('\r\n\r\n')) {
          const end = seen.indexOf('\r\n\r\n') + 4;
          const length = Number(/content-length: *(\d+)/i.exec(seen.slice(0, end))?.[1] ?? 0);
          if (seen.length < end + length) return;
          const path = seen.slice(0, end).split(' ')[1];
          seen = seen.slice(end + length);
          if (answered++ > 0) return socket.resetAndDestroy();
          const body = path === '/v1/token' ? TOKEN_BODY : ORDER;
          socket.write(
            `HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
          );
        }
      });
    });
    server = tcp as unknown as Server;
    await new Promise<void>((resolve) => tcp.listen(0, '127.0.0.1', resolve));
    return {
      baseUrl: `http://127.0.0.1:${(tcp.address() as AddressInfo).port}`,
      connections: () => connections,
    };
  }

  it('sends the request once more on a new connection, and the call succeeds', async () => {
    const s = await resettingService();
    const c = createServiceClient({ baseUrl: s.baseUrl, apiKey: 'key-123456', retries: 0 });
    // The token takes the first connection; the order read reuses it, is reset, and is sent again.
    expect((await c.getOrder('ord-1')).id).toBe('ord-1');
    expect(s.connections()).toBe(2);
  });
});

describe('node:http over TLS', () => {
  it('speaks TLS to an https service and checks its certificate (a self-signed one is refused)', async () => {
    const fixture = (name: string) => readFileSync(new URL(`./fixtures/${name}`, import.meta.url));
    server = createTlsServer(
      { key: fixture('self-signed-key.pem'), cert: fixture('self-signed-cert.pem') },
      (_req, res) => res.writeHead(200).end(TOKEN_BODY),
    );
    await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
    const baseUrl = `https://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const error = await kitErrorOf(
      createServiceClient({ baseUrl, apiKey: 'key-123456', retries: 0 }).getOrder('ord-1'),
    );
    expect(error.code).toBe('upstream_unavailable');
    // The TLS handshake ran and refused the certificate: not plain HTTP sent to a TLS port.
    expect((error.cause as { code?: string }).code).toBe('DEPTH_ZERO_SELF_SIGNED_CERT');
  });
});

describe('which runtimes get node:http', () => {
  const node = { release: { name: 'node' }, versions: { node: '20.19.0' }, getBuiltinModule: () => ({}) };
  it.each([
    ['Node 20.16+', node, undefined, true],
    [
      'Node without getBuiltinModule (older than 20.16)',
      { ...node, getBuiltinModule: undefined },
      undefined,
      false,
    ],
    ['Bun', { ...node, versions: { node: '22.0.0', bun: '1.2.0' } }, undefined, false],
    ['Deno', { ...node, versions: { node: '22.0.0', deno: '2.1.0' } }, undefined, false],
    ['Cloudflare Workers with nodejs_compat', node, 'Cloudflare-Workers', false],
    ['a runtime with no process', undefined, undefined, false],
  ] as const)('%s: %s', (_name, proc, userAgent, expected) => {
    expect(isNodeProper(proc, userAgent)).toBe(expected);
  });
});

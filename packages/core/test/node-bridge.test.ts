import { once } from 'node:events';
import { createServer, request as httpRequest, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { bodyNotRawHelp } from '../src/market/body-hints.js';
import { createNodeListener, type HandlerLike, toRequest } from '../src/node.js';
import { makeMarket } from './market-support.js';

const servers: Server[] = [];

async function serve(handler: HandlerLike, maxBodyBytes?: number): Promise<string> {
  const server = createServer(
    createNodeListener(handler, maxBodyBytes === undefined ? {} : { maxBodyBytes }),
  );
  servers.push(server);
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

afterEach(async () => {
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});

function deferred<T = void>() {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => {
    resolve = r;
  });
  return { promise, resolve };
}

describe('the Node bridge', () => {
  it('hands the handler the exact bytes that arrived, headers and URL included', async () => {
    const url = await serve(async (request) => {
      const bytes = new Uint8Array(await request.arrayBuffer());
      return Response.json({
        url: request.url,
        method: request.method,
        id: request.headers.get('x-request-id'),
        connection: request.headers.get('connection'),
        bytes: [...bytes],
      });
    });
    const sent = Uint8Array.from([0xff, 0xfe, 0x7b, 0x0a, 0x20, 0x22, 0xc3, 0x28, 0x00]);
    const response = await fetch(`${url}/v1/webhook?x=1`, {
      method: 'POST',
      headers: { 'x-request-id': 'r1', 'content-type': 'application/json' },
      body: sent,
    });
    const echoed = await response.json();
    expect(echoed).toMatchObject({
      url: `${url}/v1/webhook?x=1`,
      method: 'POST',
      id: 'r1',
      connection: null,
    });
    expect(echoed.bytes).toEqual([...sent]);
  });

  it('streams a large body through intact', async () => {
    const url = await serve(async (request) => new Response(await request.arrayBuffer()), 4 * 1024 * 1024);
    const big = new Uint8Array(3 * 1024 * 1024).map((_, i) => (i * 31) % 251);
    const back = new Uint8Array(await (await fetch(url, { method: 'POST', body: big })).arrayBuffer());
    expect(back.length).toBe(big.length);
    expect(Buffer.compare(back, big)).toBe(0);
  });

  it('errors the body past the cap with payload_too_large (413) and keeps the connection usable', async () => {
    const url = await serve(async (request) => {
      await request.arrayBuffer();
      return new Response('read');
    }, 1000);
    const stream = new ReadableStream({
      start(controller) {
        for (let i = 0; i < 3; i++) controller.enqueue(new Uint8Array(600));
        controller.close();
      },
    });
    const response = await fetch(url, { method: 'POST', body: stream, duplex: 'half' } as RequestInit);
    expect(response.status).toBe(413);
    expect((await response.json()).code).toBe('payload_too_large');
    expect(await (await fetch(url, { method: 'POST', body: 'small' })).text()).toBe('read');
  });

  it('turns a client disconnect mid-body into an aborted signal and a failed read, without crashing', async () => {
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown) => unhandled.push(reason);
    process.on('unhandledRejection', onUnhandled);
    const seen = deferred<{ aborted: boolean; readFailed: boolean }>();
    const started = deferred();
    const url = await serve(async (request) => {
      started.resolve();
      try {
        await request.arrayBuffer();
        return new Response('complete?');
      } catch (error) {
        await new Promise((resolve) =>
          request.signal.aborted ? resolve(null) : request.signal.addEventListener('abort', resolve),
        );
        seen.resolve({ aborted: request.signal.aborted, readFailed: error instanceof Error });
        return new Response('nobody listens');
      }
    });
    const { port } = new URL(url);
    const req = httpRequest({
      host: '127.0.0.1',
      port,
      method: 'POST',
      path: '/',
      headers: { 'content-length': '1000' },
    });
    req.on('error', () => {});
    req.write('x'.repeat(100));
    await started.promise;
    req.destroy();
    expect(await seen.promise).toEqual({ aborted: true, readFailed: true });
    expect((await fetch(url, { method: 'POST', body: 'next' })).status).toBe(200);
    process.off('unhandledRejection', onUnhandled);
    expect(unhandled).toEqual([]);
  });

  it('streams responses chunk by chunk and cancels the body when the client leaves', async () => {
    const secondChunkAsked = deferred();
    const cancelled = deferred<unknown>();
    let pulls = 0;
    const url = await serve(
      () =>
        new Response(
          new ReadableStream({
            async pull(controller) {
              pulls++;
              if (pulls === 1) controller.enqueue(new TextEncoder().encode('first;'));
              else {
                secondChunkAsked.resolve();
                await new Promise(() => {}); // never produces more: only a cancel ends this
              }
            },
            cancel(reason) {
              cancelled.resolve(reason);
            },
          }),
          { headers: { 'content-type': 'text/plain' } },
        ),
    );
    const controller = new AbortController();
    const response = await fetch(url, { signal: controller.signal });
    const reader = response.body!.getReader();
    const { value } = await reader.read();
    expect(new TextDecoder().decode(value)).toBe('first;');
    await secondChunkAsked.promise;
    controller.abort();
    await cancelled.promise;
  });

  it('keeps repeated Set-Cookie headers apart and sends no body for HEAD', async () => {
    const url = await serve(() => {
      const headers = new Headers({ 'content-type': 'text/plain' });
      headers.append('set-cookie', 'a=1');
      headers.append('set-cookie', 'b=2');
      return new Response('body', { status: 201, headers });
    });
    const response = await fetch(url);
    expect(response.status).toBe(201);
    expect(response.headers.getSetCookie()).toEqual(['a=1', 'b=2']);
    const head = await fetch(url, { method: 'HEAD' });
    expect(await head.text()).toBe('');
  });

  it('answers a throwing handler with a 500 problem that hides the details', async () => {
    const url = await serve(() => {
      throw new Error('secret detail');
    });
    const response = await fetch(url);
    expect(response.status).toBe(500);
    const text = await response.text();
    expect(text).not.toContain('secret detail');
    expect(JSON.parse(text).code).toBe('internal');
  });
});

describe('the Node bridge and the market', () => {
  it('writes the market’s plain answers directly, with a Content-Length', async () => {
    const { market } = await makeMarket();
    const url = await serve(market);
    const response = await fetch(`${url}/v1/demo-user`, { headers: { 'x-request-id': 'r-9' } });
    expect(response.status).toBe(200);
    expect(response.headers.get('x-request-id')).toBe('r-9');
    expect(Number(response.headers.get('content-length'))).toBe(
      (await response.clone().arrayBuffer()).byteLength,
    );
    expect(await response.json()).toMatchObject({ id: 'demo-user-1' });
  });

  it('never bypasses a wrapper that replaces handle()', async () => {
    const { market } = await makeMarket();
    const wrapped = { ...market, handle: async () => new Response('wrapped', { status: 299 }) };
    const url = await serve(wrapped);
    const response = await fetch(`${url}/v1/demo-user`);
    expect(response.status).toBe(299);
    expect(await response.text()).toBe('wrapped');
  });
});

describe('toRequest after a body parser consumed the stream', () => {
  function consumedRequest(): IncomingMessage {
    const req = {
      method: 'POST',
      url: '/v1/webhook',
      headers: { host: 'market.example.com' },
      rawHeaders: ['Host', 'market.example.com', 'Content-Type', 'application/json', 'Content-Length', '99'],
      readableEnded: true,
      readableDidRead: true,
      socket: {},
    };
    return req as unknown as IncomingMessage;
  }

  it('uses the raw bytes the parser kept', async () => {
    const raw = Buffer.from('{ "a" : 1 }');
    const request = toRequest(consumedRequest(), { consumed: { rawBody: raw, body: { a: 1 } } });
    expect(await request.text()).toBe('{ "a" : 1 }');
    expect(bodyNotRawHelp(request)).toBeUndefined();
    expect(request.headers.get('content-length')).not.toBe('99');
  });

  it('uses a Buffer or text body as raw (express.raw, express.text)', async () => {
    const buffer = toRequest(consumedRequest(), { consumed: { body: Buffer.from('{"b":2}') } });
    expect(await buffer.text()).toBe('{"b":2}');
    expect(bodyNotRawHelp(buffer)).toBeUndefined();
  });

  it('re-serializes a parsed object but marks the request as not raw, with the mounting advice', async () => {
    const request = toRequest(consumedRequest(), { consumed: { body: { a: 1 }, help: 'Mount it first.' } });
    expect(await request.json()).toEqual({ a: 1 });
    expect(bodyNotRawHelp(request)).toBe('Mount it first.');
  });

  it('builds the URL from baseUrl or a given path', () => {
    const request = toRequest(consumedRequest(), { baseUrl: 'https://shop.example/', url: '/v1/x?y=1' });
    expect(request.url).toBe('https://shop.example/v1/x?y=1');
  });
});

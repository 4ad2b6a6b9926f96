import { once } from 'node:events';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { readBodyDirectly, readHeader } from '../src/market/body-hints.js';
import { toRequest } from '../src/node.js';

let server: Server | undefined;
afterEach(async () => {
  server?.closeAllConnections();
  await new Promise((resolve) => server?.close(resolve));
  server = undefined;
});

/** Runs `inspect` on the Request made for one real HTTP request, then answers 204. */
async function withRequest(
  send: (url: string) => Promise<unknown>,
  inspect: (request: Request, req: IncomingMessage, res: ServerResponse) => Promise<void>,
): Promise<void> {
  let failure: unknown;
  const done = new Promise<void>((resolve) => {
    server = createServer(async (req, res) => {
      try {
        await inspect(toRequest(req, { res, maxBodyBytes: 1024 }), req, res);
      } catch (error) {
        failure = error;
      }
      res.writeHead(204).end();
      resolve();
    });
  });
  server!.listen(0, '127.0.0.1');
  await once(server!, 'listening');
  await send(`http://127.0.0.1:${(server!.address() as AddressInfo).port}`);
  await done;
  if (failure) throw failure;
}

describe('the Request made by toRequest', () => {
  it('is a Request, cheap until used, with Headers semantics for single lookups', async () => {
    await withRequest(
      (url) =>
        fetch(`${url}/v1/x?y=1`, {
          method: 'POST',
          headers: [
            ['X-Event-Id', 'a'],
            ['x-event-id', 'b'],
            ['content-type', 'application/json'],
          ],
          body: '{"a":1}',
        }),
      async (request) => {
        expect(request).toBeInstanceOf(Request);
        expect(request.method).toBe('POST');
        expect(new URL(request.url).pathname).toBe('/v1/x');
        expect(readHeader(request, 'x-event-id')).toBe('a, b');
        expect(readHeader(request, 'X-Event-Id')).toBe(request.headers.get('x-event-id'));
        expect(request.headers.get('content-type')).toBe('application/json');
        expect(request.bodyUsed).toBe(false);
        const bytes = await readBodyDirectly(request, 1024);
        expect(new TextDecoder().decode(bytes)).toBe('{"a":1}');
        expect(request.bodyUsed).toBe(true);
        // A second direct read declines; the full Request still has the bytes.
        expect(await readBodyDirectly(request, 1024)).toBeUndefined();
        expect(await request.clone().json()).toEqual({ a: 1 });
      },
    );
  });

  it('builds the real Request on demand, and the direct reader then steps aside', async () => {
    await withRequest(
      (url) => fetch(url, { method: 'POST', body: 'hello' }),
      async (request) => {
        expect(request.body).toBeInstanceOf(ReadableStream);
        expect(await readBodyDirectly(request, 1024)).toBeUndefined();
        expect(await request.text()).toBe('hello');
      },
    );
  });

  it('refuses a body over the cap through the direct reader', async () => {
    await withRequest(
      (url) => fetch(url, { method: 'POST', body: 'x'.repeat(2000) }),
      async (request) => {
        await expect(readBodyDirectly(request, 1024)).rejects.toMatchObject({ code: 'payload_too_large' });
      },
    );
  });

  it('makes its signal on first use, already aborted if the client is gone', async () => {
    await withRequest(
      (url) => fetch(url).catch(() => undefined),
      async (request, _req, res) => {
        res.destroy();
        await once(res, 'close');
        expect(request.signal.aborted).toBe(true);
      },
    );
  });
});

describe('a real Request built while the direct read is under way', () => {
  // Sizes around the web-stream queue (64 KiB) whose second reader used to pause the request.
  it.each([16, 64, 65, 128, 256].map((k) => k * 1024))(
    'takes its body from that read, and neither stalls (%i bytes)',
    async (size) => {
      const sent = 'x'.repeat(size);
      let seen: { direct: number; real: string } | undefined;
      server = createServer(async (req, res) => {
        const request = toRequest(req, { res, maxBodyBytes: 512 * 1024 });
        const direct = readBodyDirectly(request, 512 * 1024)!;
        // The read has begun; a real Request built now (and read only later) must not take the
        // stream from it, nor pause it.
        const real = request.clone();
        const bytes = await direct;
        const text = await real.text();
        seen = { direct: bytes!.byteLength, real: text.slice(0, 8) + text.length };
        res.writeHead(204).end();
      });
      server.listen(0, '127.0.0.1');
      await once(server, 'listening');
      const port = (server.address() as AddressInfo).port;
      const response = await fetch(`http://127.0.0.1:${port}/`, { method: 'POST', body: sent });
      expect(response.status).toBe(204);
      expect(seen).toEqual({ direct: size, real: `xxxxxxxx${size}` });
    },
  );
});

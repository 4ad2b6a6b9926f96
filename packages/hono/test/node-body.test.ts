// The fast raw-body path on @hono/node-server: when something hands the Node request's bytes to
// Hono's lazy Request between the route starting and the kit reading the body (a route that awaits
// its auth hook first, as the offer filter does), the direct reader must step aside instead of
// waiting forever on a stream that has already ended.
import { once } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { READ_BODY, READ_CLIENT_ADDRESS } from '@bnpl-kit/core/unstable-internals';
import { shapeProblem } from '@bnpl-kit/v8-shapes';
import { getRequestListener } from '@hono/node-server';
import { type Context, Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import {
  lazyRequestBuilt,
  nodeOutgoing,
  untouchedIncoming,
  withClientAddress,
  withNodeReaders,
} from '../src/node-body.js';

type DirectReader = { [READ_BODY]?: (maxBytes: number) => Promise<Uint8Array | undefined> };

async function serve(app: Hono): Promise<{ url: string; close: () => Promise<void> }> {
  const server = createServer(getRequestListener(app.fetch));
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/**
 * Serves one route that hands `read` the request with the direct reader attached (a 500 if Hono's
 * request was not untouched), POSTs `{"a":1}` to it and resolves with the answer's text.
 */
async function postThrough(
  read: (c: Context, request: Request & DirectReader) => Promise<Response>,
  body = '{"a":1}',
): Promise<string> {
  const app = new Hono();
  app.post('/', async (c) => {
    const incoming = untouchedIncoming(c);
    if (!incoming) return c.text('not untouched', 500);
    return read(c, withNodeReaders(c.req.raw, incoming, nodeOutgoing(c)) as Request & DirectReader);
  });
  const server = await serve(app);
  try {
    const answer = await fetch(server.url, { method: 'POST', body });
    return await answer.text();
  } finally {
    await server.close();
  }
}

describe('the Node direct body reader', () => {
  it('reads an untouched request directly', async () => {
    const answer = await postThrough(async (c, request) => {
      const bytes = await request[READ_BODY]!(1024);
      return c.text(new TextDecoder().decode(bytes));
    });
    expect(answer).toBe('{"a":1}');
  });

  it('steps aside (undefined) when the lazy Request took the stream after the route began', async () => {
    const answer = await postThrough(async (c, request) => {
      // What happened behind an awaited auth hook: the lazy Request's own body took the bytes.
      const taken = c.req.raw.arrayBuffer();
      await taken;
      const direct = await request[READ_BODY]!(1024);
      return c.json({
        direct: direct === undefined ? 'undefined' : 'bytes',
        body: await new Response(await taken).text(),
      });
    });
    expect(JSON.parse(answer)).toEqual({ direct: 'undefined', body: '{"a":1}' });
  });

  it('gives every request one hidden class with fast properties, signal and client address asked or not', async () => {
    const requests: Request[] = [];
    for (const body of ['{"a":1}', '{"b":2}', '{"c":3}']) {
      const answer = await postThrough(async (c, request) => {
        const withAddress = withClientAddress(request, c) as Request & {
          [READ_CLIENT_ADDRESS]?: () => string | undefined;
        };
        requests.push(withAddress);
        const address = withAddress[READ_CLIENT_ADDRESS]?.();
        const aborted = requests.length === 2 ? withAddress.signal.aborted : 'not asked';
        const bytes = await request[READ_BODY]!(1024);
        return c.json({ address, aborted, body: new TextDecoder().decode(bytes) });
      }, body);
      expect(JSON.parse(answer)).toMatchObject({ address: '127.0.0.1', body });
    }
    // A getter made per request (for `signal`, say) gives each its own hidden class, or dictionary
    // mode: one more per webhook (@bnpl-kit/v8-shapes).
    expect(shapeProblem(requests)).toBeUndefined();
  });

  const SIZES = [16, 64, 65, 128, 256].map((k) => k * 1024);

  it.each(SIZES)('answers the signal without building the lazy Request (%i bytes)', async (size) => {
    const answer = await postThrough(async (c, request) => {
      expect(request.signal.aborted).toBe(false);
      // The lazy Request was not built, so its body stream did not attach to the Node request.
      expect(untouchedIncoming(c)).toBeDefined();
      const bytes = await request[READ_BODY]!(512 * 1024);
      return c.text(String(bytes?.byteLength));
    }, 'x'.repeat(size));
    expect(answer).toBe(String(size));
  });

  it.each(SIZES)('steps aside when the lazy Request was built before the read (%i bytes)', async (size) => {
    const answer = await postThrough(async (c, request) => {
      void c.req.raw.body; // builds the lazy Request: its stream attaches to the Node request
      const direct = await request[READ_BODY]!(512 * 1024);
      const text = await c.req.raw.text();
      return c.text(`${direct === undefined ? 'undefined' : 'bytes'} ${text.length}`);
    }, 'x'.repeat(size));
    expect(answer).toBe(`undefined ${size}`);
  });

  it.each(SIZES)('is not stalled by the lazy Request built during the read (%i bytes)', async (size) => {
    const answer = await postThrough(async (c, request) => {
      const direct = request[READ_BODY]!(512 * 1024);
      void c.req.raw.body; // attaches a second reader that pauses the Node request when full
      return c.text(String((await direct)?.byteLength));
    }, 'x'.repeat(size));
    expect(answer).toBe(String(size));
  });
});

describe('the private state of @hono/node-server the fast path reads (a declared peer range)', () => {
  it('the installed @hono/node-server is inside the declared peer range', async () => {
    const { readFile } = await import('node:fs/promises');
    const { createRequire } = await import('node:module');
    const own = JSON.parse(await readFile(new URL('../package.json', import.meta.url), 'utf8'));
    expect(own.peerDependencies['@hono/node-server']).toBe('>=1.19.0 <2');
    expect(own.peerDependenciesMeta['@hono/node-server']).toEqual({ optional: true });
    const require = createRequire(import.meta.url);
    // Its exports map hides package.json: read it next to the resolved entry (dist/index.js).
    const entry = require.resolve('@hono/node-server');
    const manifest = `${entry.slice(0, entry.lastIndexOf('/dist/'))}/package.json`;
    const installed = JSON.parse(await readFile(manifest, 'utf8')).version as string;
    const [major, minor] = installed.split('.').map(Number) as [number, number];
    expect(major === 1 && minor >= 19, `@hono/node-server ${installed}`).toBe(true);
  });

  it('its lazy Request still keeps the built Request under the "requestCache" symbol', async () => {
    const answer = await postThrough(async (c) => {
      const before = lazyRequestBuilt(c.req.raw);
      // Asking for the body builds the full Request (and its stream over the Node request).
      void c.req.raw.body;
      const after = lazyRequestBuilt(c.req.raw);
      await c.req.raw.arrayBuffer();
      return c.json({ before, after });
    });
    expect(JSON.parse(answer)).toEqual({ before: false, after: true });
  });
});

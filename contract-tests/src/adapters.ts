/**
 * The framework adapters as data: each entry starts a real server on 127.0.0.1 (ephemeral port) with
 * that framework, the kit mounted under a sub-path next to the app's own routes, and optionally a
 * global JSON body parser in front of it. The behaviour suite and the contract suite loop over this
 * list (graphql-http `tests/use.test.ts`), so a fourth adapter is one more entry.
 *
 * Every app serves `GET /health` → `ok` at the root and `GET <mount>/own` → `own` after the router,
 * to prove the router lets the app's own routes through.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { once } from 'node:events';
import type { Server } from 'node:http';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { clientKeyFromForwardedFor, type Market } from '@bnpl-kit/core';
import * as expressAdapter from '@bnpl-kit/express';
import * as fastifyAdapter from '@bnpl-kit/fastify';
import * as honoAdapter from '@bnpl-kit/hono';
import * as koaAdapter from '@bnpl-kit/koa';
import * as nestAdapter from '@bnpl-kit/nestjs';
import { serve } from '@hono/node-server';
import { NestFactory } from '@nestjs/core';
import { ExpressAdapter } from '@nestjs/platform-express';
import { FastifyAdapter } from '@nestjs/platform-fastify';
import express from 'express';
import Fastify from 'fastify';
import { Hono } from 'hono';
import Koa from 'koa';
import bodyParser from 'koa-bodyparser';
import mount from 'koa-mount';
import next from 'next';

import type { StartedServer, StartOptions } from './adapter-server.js';

export type { GlobalJsonParser, StartedServer, StartOptions } from './adapter-server.js';

export interface AdapterEntry {
  /** `frameworkName`, or `<frameworkName>-<platform>` for a framework that runs on several. */
  name: string;
  frameworkName: string;
  platform?: string;
  /**
   * The kit reads its requests' bytes before any parser of the app can (Fastify's encapsulated
   * content-type parser, Nest's early mount, Next's route handlers): a global parser that keeps no
   * raw copy cannot break its webhooks.
   */
  rawWhateverTheParser?: boolean;
  /**
   * How a market on this framework tells its callers apart (`createMarket({ clientKey })`) where the
   * handler sees no socket: Next's route handlers get a plain Request, and Next's server puts the
   * peer address in `X-Forwarded-For` when no proxy did (one hop, read from the right).
   */
  clientKey?: (request: Request) => string | undefined;
  start(market: Market, options?: StartOptions): Promise<StartedServer>;
}

async function listen(server: Server, mountPath: string): Promise<StartedServer> {
  if (!server.listening) {
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
  }
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    origin,
    url: `${origin}${mountPath}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

async function startExpress(market: Market, options: StartOptions = {}): Promise<StartedServer> {
  const mountPath = options.mountPath ?? '/bnpl';
  const app = express();
  if (options.globalJsonParser === 'keeps-raw') {
    app.use(express.json({ verify: (req, _res, buf) => Object.assign(req, { rawBody: buf }) }));
  } else if (options.globalJsonParser === 'discards-raw') {
    app.use(express.json());
  }
  app.get('/health', (_req, res) => {
    res.send('ok');
  });
  app.use(mountPath || '/', expressAdapter.createBnplRouter(market));
  app.get(`${mountPath}/own`, (_req, res) => {
    res.send('own');
  });
  return listen(app.listen(0, '127.0.0.1'), mountPath);
}

async function startKoa(market: Market, options: StartOptions = {}): Promise<StartedServer> {
  const mountPath = options.mountPath ?? '/bnpl';
  const app = new Koa();
  if (options.globalJsonParser !== undefined && options.globalJsonParser !== 'none') {
    app.use(bodyParser());
    if (options.globalJsonParser === 'discards-raw') {
      // A parser that keeps no raw copy (koa-body's default, for one).
      app.use((ctx, next) => {
        delete (ctx.request as { rawBody?: unknown }).rawBody;
        return next();
      });
    }
  }
  app.use(async (ctx, next) => {
    if (ctx.method === 'GET' && ctx.path === '/health') ctx.body = 'ok';
    else await next();
  });
  const router = koaAdapter.createBnplRouter(market);
  app.use(mountPath ? mount(mountPath, router) : router);
  app.use(async (ctx, next) => {
    if (ctx.method === 'GET' && ctx.path === `${mountPath}/own`) ctx.body = 'own';
    else await next();
  });
  return listen(app.listen(0, '127.0.0.1'), mountPath);
}

async function startHono(market: Market, options: StartOptions = {}): Promise<StartedServer> {
  const mountPath = options.mountPath ?? '/bnpl';
  const app = new Hono();
  const parser = options.globalJsonParser ?? 'none';
  if (parser !== 'none') {
    app.use('*', async (c, next) => {
      if (c.req.header('content-type')?.startsWith('application/json')) {
        // `c.req.json()` goes through Hono's text cache (raw bytes kept); reading the raw Request
        // directly, as some parsers do, leaves only the parsed value behind.
        if (parser === 'keeps-raw') await c.req.json().catch(() => undefined);
        else c.req.bodyCache.json = c.req.raw.json().catch(() => undefined);
      }
      await next();
    });
  }
  app.get('/health', (c) => c.text('ok'));
  app.route(mountPath || '/', honoAdapter.createBnplRouter(market));
  app.get(`${mountPath}/own`, (c) => c.text('own'));
  // @hono/node-server replaces the global Request and Response by default; every adapter of this
  // suite shares one process, and Fastify's answers then lose the connection (GET /v1/demo-user).
  const server = serve({
    fetch: app.fetch,
    port: 0,
    hostname: '127.0.0.1',
    overrideGlobalObjects: false,
  }) as Server;
  return listen(server, mountPath);
}

async function startFastify(market: Market, options: StartOptions = {}): Promise<StartedServer> {
  const mountPath = options.mountPath ?? '/bnpl';
  const app = Fastify();
  if (options.globalJsonParser === 'keeps-raw') {
    app.removeContentTypeParser('application/json');
    app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (request, body, done) => {
      Object.assign(request, { rawBody: body });
      try {
        done(null, JSON.parse(body.toString()));
      } catch (error) {
        done(error as Error);
      }
    });
  }
  // 'discards-raw' and 'none' are both Fastify's default JSON parser, which keeps no raw copy.
  app.get('/health', async () => 'ok');
  app.register(fastifyAdapter.bnpl, { market, prefix: mountPath });
  app.get(`${mountPath}/own`, async () => 'own');
  await app.listen({ port: 0, host: '127.0.0.1' });
  return listen(app.server, mountPath);
}

/**
 * A Nest app on either platform, `BnplModule` imported in its root module. Its own routes go on
 * the platform's instance (a controller needs decorators, which this package does not compile).
 */
async function startNest(
  platform: 'express' | 'fastify',
  market: Market,
  options: StartOptions = {},
): Promise<StartedServer> {
  const mountPath = options.mountPath ?? '/bnpl';
  const parser = options.globalJsonParser ?? 'none';
  const root = {
    module: class AppModule {},
    imports: [nestAdapter.BnplModule.forRoot({ market, path: mountPath || '/' })],
  };
  const app = await NestFactory.create(
    root,
    platform === 'express' ? new ExpressAdapter() : new FastifyAdapter(),
    {
      // Nest's own JSON parser: 'keeps-raw' is its rawBody option, 'discards-raw' its default.
      bodyParser: parser !== 'none',
      rawBody: parser === 'keeps-raw',
      logger: false,
    },
  );
  const http = app.getHttpAdapter();
  http.get('/health', (_req: unknown, res: unknown) => http.reply(res, 'ok', 200));
  http.get(`${mountPath}/own`, (_req: unknown, res: unknown) => http.reply(res, 'own', 200));
  await app.listen(0, '127.0.0.1');
  const started = await listen(app.getHttpServer() as Server, mountPath);
  return { ...started, close: () => app.close() };
}

const NEXT_APP = fileURLToPath(new URL('../../apps/nextjs-example', import.meta.url));
/** The market each in-process Next server answers with (apps/nextjs-example/lib/market.ts). */
const nextMarket = new AsyncLocalStorage<Market>();
let nextHandler: Promise<ReturnType<ReturnType<typeof next>['getRequestHandler']>> | undefined;

/**
 * The example app as `next build` left it, served by Next's programmatic production server in
 * this process (so the suite's market is the one answering). Its route file sits at /bnpl; a root
 * mount is mapped onto it.
 */
async function startNext(market: Market, options: StartOptions = {}): Promise<StartedServer> {
  const mountPath = options.mountPath ?? '/bnpl';
  if (mountPath !== '' && mountPath !== '/bnpl')
    throw new Error(`the Next example serves /bnpl, not ${mountPath}`);
  (globalThis as Record<symbol, unknown>)[Symbol.for('bnpl-kit.nextjs-example.market-under-test')] = () =>
    nextMarket.getStore();
  nextHandler ??= (async () => {
    const app = next({ dir: NEXT_APP, dev: false, quiet: true });
    await app.prepare();
    return app.getRequestHandler();
  })();
  const handle = await nextHandler;
  const server = createServer((req, res) => {
    if (mountPath === '' && req.url !== '/health') req.url = `/bnpl${req.url}`;
    // Next must sit behind a proxy that appends the peer to X-Forwarded-For (Next itself only sets
    // the header when absent, so a client could write it): this server plays that proxy.
    const forwarded = [req.headers['x-forwarded-for'], req.socket.remoteAddress].flat().filter(Boolean);
    req.headers['x-forwarded-for'] = forwarded.join(', ');
    nextMarket.run(market, () => void handle(req, res));
  });
  return listen(server, mountPath);
}

export const adapters: readonly AdapterEntry[] = [
  { name: 'express', frameworkName: expressAdapter.frameworkName, start: startExpress },
  { name: 'koa', frameworkName: koaAdapter.frameworkName, start: startKoa },
  { name: 'hono', frameworkName: honoAdapter.frameworkName, start: startHono },
  {
    name: 'fastify',
    frameworkName: fastifyAdapter.frameworkName,
    start: startFastify,
    rawWhateverTheParser: true,
  },
  // Next.js has no adapter package: the App Router route handler is the plain fetch handler.
  {
    name: 'nextjs',
    frameworkName: 'nextjs',
    start: startNext,
    rawWhateverTheParser: true,
    clientKey: clientKeyFromForwardedFor({ trustedHops: 1 }),
  },
  ...(['express', 'fastify'] as const).map((platform) => ({
    name: `nestjs-${platform}`,
    frameworkName: nestAdapter.frameworkName,
    platform,
    start: (market: Market, options?: StartOptions) => startNest(platform, market, options),
    rawWhateverTheParser: true,
  })),
];

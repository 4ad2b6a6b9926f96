/**
 * The framework adapters as data: each entry starts a real server on 127.0.0.1 (ephemeral port) with
 * that framework, the kit mounted under a sub-path next to the app's own routes, and optionally a
 * global JSON body parser in front of it. The behaviour suite and the contract suite loop over this
 * list (graphql-http `tests/use.test.ts`), so a fourth adapter is one more entry. The Next.js entry
 * serves the example app as `next build` left it, so it lives with that app
 * (apps/nextjs-example/test/next-adapter.ts), whose tests wait for its build; these do not.
 *
 * Every app serves `GET /health` → `ok` at the root and `GET <mount>/own` → `own` after the router,
 * to prove the router lets the app's own routes through.
 */
import type { Server } from 'node:http';
import type { Market } from '@bnpl-kit/core';
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

import { type AdapterEntry, listen, type StartedServer, type StartOptions } from './adapter-server.js';

export type { AdapterEntry, GlobalJsonParser, StartedServer, StartOptions } from './adapter-server.js';

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
  ...(['express', 'fastify'] as const).map((platform) => ({
    name: `nestjs-${platform}`,
    frameworkName: nestAdapter.frameworkName,
    platform,
    start: (market: Market, options?: StartOptions) => startNest(platform, market, options),
    rawWhateverTheParser: true,
  })),
];

/** The entry named `name`; throws for a name the list does not have (a stale file under test/suite). */
export function adapterNamed(name: string): AdapterEntry {
  const adapter = adapters.find((a) => a.name === name);
  if (!adapter) throw new Error(`src/adapters.ts has no adapter named ${name}`);
  return adapter;
}

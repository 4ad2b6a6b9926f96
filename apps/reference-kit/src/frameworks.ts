/**
 * `FRAMEWORK=express|koa|hono`: the same server on each framework, so every reference server
 * demonstrates all three adapters. Each entry serves the server's own GET routes (`/healthz`,
 * `/readyz`, `/bnpl/complete`, the sandbox's `/v1/demo-user`), then mounts the kit's router, and
 * answers anything else with a 404 problem. It returns a Node request listener; the HTTP server
 * around it is shared (http-server.ts).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { KitError, type Market, type MarketLogger } from '@bnpl-kit/core';
import { sendResponse } from '@bnpl-kit/core/node';
import * as expressAdapter from '@bnpl-kit/express';
import * as honoAdapter from '@bnpl-kit/hono';
import * as koaAdapter from '@bnpl-kit/koa';
import { getRequestListener } from '@hono/node-server';
import express from 'express';
import { Hono } from 'hono';
import Koa from 'koa';
import type { FrameworkName } from './config.js';
import type { OwnRoutes } from './own-routes.js';

export type NodeListener = (req: IncomingMessage, res: ServerResponse) => void;

function urlOf(req: IncomingMessage): URL {
  return new URL(req.url ?? '/', 'http://localhost');
}

export function notFound(path: string): Response {
  return new KitError('not_found', `No endpoint at ${path}`).toResponse();
}

/** 5xx causes of framework-level errors go to the log; the client only sees a problem document. */
function logged(logger: MarketLogger) {
  return { onError: (err: unknown) => logger.error({ err }, 'request failed outside the kit') };
}

function startExpress(market: Market, own: OwnRoutes, logger: MarketLogger): NodeListener {
  const app = express();
  app.disable('x-powered-by');
  for (const [path, route] of Object.entries(own)) {
    app.get(
      path,
      async (req, res) => void (await sendResponse(res, await route(urlOf(req), req.headers.accept ?? ''))),
    );
  }
  app.use(expressAdapter.createBnplRouter(market));
  app.use((req, res) => void sendResponse(res, notFound(req.path)));
  // Last: Express's own error page (HTML with a stack) must never answer.
  app.use(expressAdapter.bnplErrorHandler(logged(logger)));
  return app;
}

function startKoa(market: Market, own: OwnRoutes, logger: MarketLogger): NodeListener {
  const app = new Koa();
  // First: every error below it is a problem document, not Koa's text/plain page.
  app.use(koaAdapter.bnplErrorHandler(logged(logger)));
  const send = async (ctx: Koa.Context, response: Response) => {
    ctx.respond = false;
    await sendResponse(ctx.res, response);
  };
  app.use(async (ctx, next) => {
    const route = ctx.method === 'GET' ? own[ctx.path] : undefined;
    return route ? send(ctx, await route(urlOf(ctx.req), ctx.get('accept'))) : next();
  });
  app.use(koaAdapter.createBnplRouter(market));
  app.use((ctx) => send(ctx, notFound(ctx.path)));
  return app.callback();
}

function startHono(market: Market, own: OwnRoutes, logger: MarketLogger): NodeListener {
  const app = new Hono();
  app.onError(honoAdapter.bnplErrorHandler(logged(logger)));
  for (const [path, route] of Object.entries(own))
    app.get(path, (c) => route(new URL(c.req.url), c.req.header('accept') ?? ''));
  app.route('/', honoAdapter.createBnplRouter(market));
  app.notFound((c) => notFound(c.req.path));
  return getRequestListener(app.fetch);
}

export const FRAMEWORKS: Record<
  FrameworkName,
  (market: Market, own: OwnRoutes, logger: MarketLogger) => NodeListener
> = {
  express: startExpress,
  koa: startKoa,
  hono: startHono,
};

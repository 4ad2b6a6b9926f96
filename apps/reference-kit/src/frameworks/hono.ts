/** The reference server on Hono (FRAMEWORK=hono, the default). */
import { bnplErrorHandler, createBnplRouter } from '@bnpl-kit/hono';
import { getRequestListener } from '@hono/node-server';
import { Hono } from 'hono';
import { type FrameworkStarter, logged, notFound } from './shared.js';

export const startHono: FrameworkStarter = (market, own, logger) => {
  const app = new Hono();
  app.onError(bnplErrorHandler(logged(logger)));
  for (const [path, route] of Object.entries(own))
    app.get(path, (c) =>
      route(new URL(c.req.url), c.req.header('accept') ?? '', c.req.header('authorization') ?? ''),
    );
  app.route('/', createBnplRouter(market));
  app.notFound((c) => notFound(c.req.path));
  return getRequestListener(app.fetch);
};

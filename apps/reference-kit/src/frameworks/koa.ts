/** The reference server on Koa (FRAMEWORK=koa). */
import { sendResponse } from '@bnpl-kit/core/node';
import { bnplErrorHandler, createBnplRouter } from '@bnpl-kit/koa';
import Koa from 'koa';
import { type FrameworkStarter, logged, notFound, urlOf } from './shared.js';

export const startKoa: FrameworkStarter = (market, own, logger) => {
  const app = new Koa();
  // First: every error below it is a problem document, not Koa's text/plain page.
  app.use(bnplErrorHandler(logged(logger)));
  const send = async (ctx: Koa.Context, response: Response) => {
    ctx.respond = false;
    await sendResponse(ctx.res, response);
  };
  app.use(async (ctx, next) => {
    const route = ctx.method === 'GET' ? own[ctx.path] : undefined;
    return route
      ? send(ctx, await route(urlOf(ctx.req), ctx.get('accept'), ctx.get('authorization')))
      : next();
  });
  app.use(createBnplRouter(market));
  app.use((ctx) => send(ctx, notFound(ctx.path)));
  return app.callback();
};

/**
 * `@bnpl-kit/koa`: mounts the market handler on Koa. It only translates (through the Node bridge
 * in `@bnpl-kit/core/node`); every endpoint's behaviour lives in `createMarket`.
 *
 *   app.use(mount('/bnpl', createBnplRouter(market))); // with koa-mount; or app.use(createBnplRouter(market))
 */
import type { Market } from '@bnpl-kit/core';
import { handleNodeRequest, sendAnswer } from '@bnpl-kit/core/node';
import { kitErrorOfFramework, problemAnswer } from '@bnpl-kit/core/unstable-internals';
import type { Middleware } from 'koa';

export const frameworkName = 'koa';

/** Shown in the `payload_not_raw` problem when a global body parser ate the webhook body. */
export const RAW_BODY_HELP =
  'Koa: mount createBnplRouter(market) BEFORE the body parser, or use koa-bodyparser, ' +
  'which keeps the raw bytes in ctx.request.rawBody (other parsers: enable their raw-body option).';

interface ParsedRequest {
  rawBody?: unknown;
  body?: unknown;
}

export function createBnplRouter(market: Market): Middleware {
  return async function bnplRouter(ctx, next) {
    // koa-mount rewrites the path to be relative to the mount point; other paths fall through.
    if (!market.ownsPath(ctx.path)) return next();
    // The bridge writes the response itself; Koa must not write a second one.
    ctx.respond = false;
    const parsed = ctx.request as ParsedRequest;
    await handleNodeRequest(market, ctx.req, ctx.res, {
      maxBodyBytes: market.maxBodyBytes,
      consumed: { rawBody: parsed.rawBody, body: parsed.body, help: RAW_BODY_HELP },
    });
  };
}

/**
 * The first middleware of a Koa app: an error thrown anywhere below (a route that throws,
 * `ctx.throw`, a body parser) is answered as an RFC 9457 problem instead of Koa's text/plain page.
 * `onError` sees 5xx causes for logging (Koa's own `error` event is not emitted for them).
 *
 *   app.use(bnplErrorHandler({ onError: (err) => log.error({ err }) }));
 */
export function bnplErrorHandler(options: { onError?: (error: unknown) => void } = {}): Middleware {
  return async function bnplErrors(ctx, next) {
    try {
      await next();
    } catch (error) {
      if (ctx.res.headersSent) {
        ctx.res.destroy();
        return;
      }
      const kitError = kitErrorOfFramework(error);
      if (kitError.status >= 500) options.onError?.(error);
      ctx.respond = false;
      sendAnswer(ctx.res, problemAnswer(kitError));
    }
  };
}

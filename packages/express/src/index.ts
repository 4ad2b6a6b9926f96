/**
 * `@bnpl-kit/express`: mounts the market handler on Express. It only translates (through the Node
 * bridge in `@bnpl-kit/core/node`); every endpoint's behaviour lives in `createMarket`.
 *
 *   app.use('/bnpl', createBnplRouter(market)); // serves /bnpl/v1/…, everything else falls through
 */
import type { Market } from '@bnpl-kit/core';
import { handleNodeRequest, sendAnswer } from '@bnpl-kit/core/node';
import { kitErrorOfFramework, problemAnswer } from '@bnpl-kit/core/unstable-internals';
import type { ErrorRequestHandler, NextFunction, Request, RequestHandler, Response } from 'express';

export const frameworkName = 'express';

/** Shown in the `payload_not_raw` problem when a global `express.json()` ate the webhook body. */
export const RAW_BODY_HELP =
  'Express: mount createBnplRouter(market) BEFORE app.use(express.json()), ' +
  'or keep the raw bytes: app.use(express.json({ verify: (req, _res, buf) => { req.rawBody = buf } })).';

export function createBnplRouter(market: Market): RequestHandler {
  return function bnplRouter(req: Request, res: Response, next: NextFunction): void {
    // `req.path` is relative to where the router is mounted; the market's own routes fall through.
    if (!market.ownsPath(req.path)) {
      next();
      return;
    }
    void handleNodeRequest(market, req, res, {
      maxBodyBytes: market.maxBodyBytes,
      consumed: { rawBody: (req as { rawBody?: unknown }).rawBody, body: req.body, help: RAW_BODY_HELP },
    });
  };
}

/**
 * The last middleware of an Express app: any error (a path Express cannot decode, a body parser's
 * 413, a route that throws) is answered as an RFC 9457 problem, never Express's HTML error page
 * with a stack. `onError` sees 5xx causes for logging.
 *
 *   app.use(bnplErrorHandler({ onError: (err) => log.error({ err }) }));
 */
export function bnplErrorHandler(options: { onError?: (error: unknown) => void } = {}): ErrorRequestHandler {
  return function bnplErrors(error: unknown, _req: Request, res: Response, next: NextFunction): void {
    // Express's rule: once a response has started, only its default handler may cut the connection.
    if (res.headersSent) {
      next(error);
      return;
    }
    const kitError = kitErrorOfFramework(error);
    if (kitError.status >= 500) options.onError?.(error);
    sendAnswer(res, problemAnswer(kitError));
  };
}

/**
 * `@bnpl-kit/express`: mounts the market handler on Express. It only translates (through the Node
 * bridge in `@bnpl-kit/core/node`); every endpoint's behaviour lives in `createMarket`.
 *
 *   app.use('/bnpl', createBnplRouter(market)); // serves /bnpl/v1/…, everything else falls through
 */
import type { Market } from '@bnpl-kit/core';
import { handleNodeRequest } from '@bnpl-kit/core/node';
import type { NextFunction, Request, RequestHandler, Response } from 'express';

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

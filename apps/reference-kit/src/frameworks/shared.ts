/** What the three framework entries share: the listener type, the 404 problem, the error log. */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { KitError, type Market, type MarketLogger } from '@bnpl-kit/core';
import type { OwnRoutes } from '../own-routes.js';

export type NodeListener = (req: IncomingMessage, res: ServerResponse) => void;

/** Builds one framework's app: the server's own GET routes, the kit's router, a 404 problem. */
export type FrameworkStarter = (market: Market, own: OwnRoutes, logger: MarketLogger) => NodeListener;

export function urlOf(req: IncomingMessage): URL {
  return new URL(req.url ?? '/', 'http://localhost');
}

export function notFound(path: string): Response {
  return new KitError('not_found', `No endpoint at ${path}`).toResponse();
}

/** 5xx causes of framework-level errors go to the log; the client only sees a problem document. */
export function logged(logger: MarketLogger) {
  return { onError: (err: unknown) => logger.error({ err }, 'request failed outside the kit') };
}

/**
 * Runs a fetch-style handler for one Node request, end to end: Request in, Response out, every
 * failure turned into a problem document, client disconnects turned into an aborted signal. It
 * never rejects, so a framework adapter can fire and forget it.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { type MarketAnswer, problemAnswer } from '../market/answer.js';
import { answererOf } from '../market/body-hints.js';
import { sendAnswer, sendResponse } from './send-response.js';
import { type ToRequestOptions, toRequest } from './to-request.js';

export type FetchHandler = (request: Request) => Promise<Response> | Response;
/**
 * A function, or anything with a `handle(request)` method (the market). When `handle` carries a
 * plain-data answerer (the market's does, see body-hints.ts), that is used: no Response is built.
 */
export type HandlerLike = FetchHandler | { handle(request: Request): Promise<Response> };

export type NodeHandlerOptions = Omit<ToRequestOptions, 'signal' | 'res'>;

function run(handler: HandlerLike, request: Request): Promise<Response | MarketAnswer> | Response {
  if (typeof handler === 'function') return handler(request);
  const answer = answererOf(handler.handle);
  return answer ? answer(request) : handler.handle(request);
}

/** Resolves with the status sent (0 when the client was gone before anything was written). */
export function handleNodeRequest(
  handler: HandlerLike,
  req: IncomingMessage,
  res: ServerResponse,
  options: NodeHandlerOptions = {},
): Promise<number> {
  // A promise chain rather than `async`: one frame fewer on every request.
  let pending: Promise<Response | MarketAnswer> | Response;
  try {
    pending = run(handler, toRequest(req, { ...options, res }));
  } catch (error) {
    pending = Promise.reject(error);
  }
  return Promise.resolve(pending).then(
    (result) => send(res, result),
    (error: unknown) => send(res, problemAnswer(error)),
  );
}

/** Writes the result; never throws (a failure mid-write can only abort the connection). */
function send(res: ServerResponse, result: Response | MarketAnswer): Promise<number> | number {
  if (result instanceof Response) {
    return sendResponse(res, result).then(
      () => statusSent(res, result),
      () => {
        res.destroy();
        return statusSent(res, result);
      },
    );
  }
  try {
    sendAnswer(res, result);
  } catch {
    res.destroy();
  }
  return statusSent(res, result);
}

function statusSent(res: ServerResponse, result: { status: number }): number {
  return res.headersSent ? result.status : 0;
}

/** A `(req, res)` listener for `http.createServer`, or anything that takes one. */
export function createNodeListener(
  handler: HandlerLike,
  options: NodeHandlerOptions = {},
): (req: IncomingMessage, res: ServerResponse) => void {
  return (req, res) => {
    void handleNodeRequest(handler, req, res, options);
  };
}

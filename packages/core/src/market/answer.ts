/**
 * What a route produces: status, headers and body bytes, as plain data. `handle()` turns it into a
 * `Response`; the Node bridge writes it straight to the socket instead (`respond()`), because a
 * web `Response` with a body costs more to build than the rest of a webhook answer (its stream).
 */
import { KitError, PROBLEM_CONTENT_TYPE } from '../errors.js';

export interface MarketAnswer {
  status: number;
  /** Lower-case names. */
  headers: Record<string, string>;
  body: Uint8Array | null;
  /** The route that answered (set by the handler, for spans and metrics; never sent). */
  route?: string | undefined;
}

const encoder = new TextEncoder();

export function jsonAnswer(body: unknown, status = 200, headers: Record<string, string> = {}): MarketAnswer {
  return {
    status,
    headers: { 'content-type': 'application/json', ...headers },
    body: encoder.encode(JSON.stringify(body)),
  };
}

/** The RFC 9457 answer for any error; like `problemResponse`, a 500 says nothing internal. */
export function problemAnswer(error: unknown): MarketAnswer {
  const kitError = KitError.fromUnknown(error);
  const headers: Record<string, string> = { 'content-type': PROBLEM_CONTENT_TYPE };
  for (const [name, value] of Object.entries(kitError.headers ?? {})) headers[name.toLowerCase()] = value;
  return { status: kitError.status, headers, body: encoder.encode(JSON.stringify(kitError.toProblem())) };
}

export function answerToResponse(answer: MarketAnswer): Response {
  return new Response(answer.body as BodyInit | null, { status: answer.status, headers: answer.headers });
}

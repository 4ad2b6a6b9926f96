/**
 * `@bnpl-kit/fastify`: mounts the market handler on Fastify as an encapsulated plugin. It only
 * translates (through the Node bridge in `@bnpl-kit/core/node`); every endpoint's behaviour lives
 * in `createMarket`.
 *
 *   fastify.register(bnpl, { market, prefix: '/bnpl' }); // serves /bnpl/v1/…
 *
 * The plugin's own context replaces every content-type parser with one that reads nothing, so the
 * kit reads the exact bytes off the socket whatever parsers the app registered (they still apply
 * to the app's own routes: the plugin is not wrapped in fastify-plugin on purpose).
 */
import type { Market } from '@bnpl-kit/core';
import { handleNodeRequest } from '@bnpl-kit/core/node';
import { kitErrorOfFramework, problemAnswer } from '@bnpl-kit/core/unstable-internals';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

export const frameworkName = 'fastify';

/** Shown in the `payload_not_raw` problem; only a hook that read the stream first can cause it. */
export const RAW_BODY_HELP =
  'Fastify: register createBnplRouter(market) (or the bnpl plugin) with a prefix and keep ' +
  'preParsing/onRequest hooks that read the body out of its context: its own content-type parser keeps the raw bytes.';

export interface BnplPluginOptions {
  market: Market;
  /** Fastify's own register option: where the kit is mounted, e.g. `/bnpl`. */
  prefix?: string;
  /** Sees the causes of 5xx problems answered by the plugin's error handler. */
  onError?: (error: unknown) => void;
}

type ErrorHandler = (error: FastifyError, request: FastifyRequest, reply: FastifyReply) => void;

/** The path and query below the plugin's prefix, as the market routes on it. */
function belowPrefix(url: string, prefix: string): string {
  const rest = url.slice(prefix.length);
  return rest.startsWith('/') ? rest : `/${rest}`;
}

/** `fastify.register(bnpl, { market, prefix })`. */
export async function bnpl(fastify: FastifyInstance, options: BnplPluginOptions): Promise<void> {
  const { market } = options;
  // Encapsulated: these replace the app's parsers for the kit's routes only. The body stays unread
  // until the market reads it (with its own size cap and disconnect handling).
  fastify.removeAllContentTypeParsers();
  fastify.addContentTypeParser('*', (_request, _payload, done) => done(null));
  fastify.setErrorHandler(bnplErrorHandler({ onError: options.onError }));
  fastify.all('/*', (request, reply) => {
    const url = belowPrefix(request.raw.url ?? '/', fastify.prefix);
    if (!market.ownsPath(url.split('?', 1)[0]!)) return reply.callNotFound();
    // The bridge writes the response itself; Fastify must not write a second one.
    reply.hijack();
    return handleNodeRequest(market, request.raw, reply.raw, {
      url,
      maxBodyBytes: market.maxBodyBytes,
      consumed: { help: RAW_BODY_HELP },
    }).then(() => undefined);
  });
}

/** The same plugin with the market bound: `fastify.register(createBnplRouter(market), { prefix })`. */
export function createBnplRouter(market: Market) {
  return (fastify: FastifyInstance, options: Omit<BnplPluginOptions, 'market'>) =>
    bnpl(fastify, { ...options, market });
}

/**
 * For `fastify.setErrorHandler(...)` on the app: any error (a route that throws, a body parser's
 * 413, a malformed URL) is answered as an RFC 9457 problem instead of Fastify's JSON error, which
 * can carry internal messages. `onError` sees 5xx causes for logging.
 *
 *   fastify.setErrorHandler(bnplErrorHandler({ onError: (err) => log.error({ err }) }));
 */
export function bnplErrorHandler(
  options: { onError?: ((error: unknown) => void) | undefined } = {},
): ErrorHandler {
  return (error, _request, reply) => {
    const kitError = kitErrorOfFramework(error);
    if (kitError.status >= 500) options.onError?.(error);
    if (reply.raw.headersSent) {
      reply.raw.destroy();
      return;
    }
    const answer = problemAnswer(kitError);
    reply.code(answer.status).headers(answer.headers);
    reply.send(answer.body === null ? undefined : Buffer.from(answer.body));
  };
}

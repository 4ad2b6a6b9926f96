/**
 * `@bnpl-kit/nestjs`: mounts the market handler in a Nest app, on the Express or the Fastify
 * platform. It only translates (through the Node bridge in `@bnpl-kit/core/node`); every
 * endpoint's behaviour lives in `createMarket`.
 *
 *   @Module({ imports: [BnplModule.forRoot({ market, path: '/bnpl' })] }) // serves /bnpl/v1/…
 *
 * The mount happens while Nest creates the module's providers, which is before `app.init()`
 * registers Nest's body parsers: the kit reads the exact bytes whatever parser the app configured
 * (`bodyParser`, `rawBody`, `app.useBodyParser`). Plain functions and a DynamicModule: no decorators.
 */

import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Market } from '@bnpl-kit/core';
import { handleNodeRequest, sendAnswer } from '@bnpl-kit/core/node';
import { kitErrorOfFramework, problemAnswer } from '@bnpl-kit/core/unstable-internals';
import type {
  ArgumentsHost,
  DynamicModule,
  ExceptionFilter,
  InjectionToken,
  ModuleMetadata,
} from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';

export const frameworkName = 'nestjs';

/** Shown in the `payload_not_raw` problem: only middleware mounted before the module can cause it. */
export const RAW_BODY_HELP =
  'NestJS: import BnplModule (createBnplRouter) in the module passed to NestFactory.create and do not ' +
  'read request bodies in code that runs before it, or create the app with { rawBody: true }.';

/** Inject the market elsewhere: `@Inject(BNPL_MARKET) market: Market`. */
export const BNPL_MARKET = Symbol('bnpl-kit.market');
const OPTIONS = Symbol('bnpl-kit.options');
const MOUNTED = Symbol('bnpl-kit.mounted');

export interface BnplModuleOptions {
  market: Market;
  /** Where the kit is served from the origin (Nest's global prefix does not apply). Default `/bnpl`. */
  path?: string;
}

export interface BnplModuleAsyncOptions extends Pick<ModuleMetadata, 'imports'> {
  /** Providers handed to `useFactory`, e.g. the services the market's hooks call. */
  inject?: InjectionToken[];
  useFactory: (...deps: never[]) => BnplModuleOptions | Promise<BnplModuleOptions>;
}

type NodeRequest = IncomingMessage & { rawBody?: unknown; body?: unknown };
type Next = () => void;
interface FastifyLike {
  addHook(
    name: 'onRequest',
    hook: (request: { raw: NodeRequest }, reply: FastifyReplyLike, done: Next) => void,
  ): void;
}
interface FastifyReplyLike {
  raw: ServerResponse;
  hijack(): void;
  code(status: number): FastifyReplyLike;
  headers(values: Record<string, string>): FastifyReplyLike;
  send(body: Buffer): void;
}

/** The path and query below `base`, or undefined when the URL is not under it. */
function below(url: string, base: string): string | undefined {
  if (!url.startsWith(base)) return undefined;
  const rest = url.slice(base.length);
  if (rest === '' || rest.startsWith('?')) return `/${rest}`;
  return rest.startsWith('/') ? rest : undefined;
}

/**
 * A `(req, res, next)` middleware serving the market under `path` (Express's shape; the module
 * mounts it for you). Returns whether it took the request.
 */
export function createBnplRouter(market: Market, path = '/bnpl') {
  const base = path.replace(/\/+$/, '');
  return (req: NodeRequest, res: ServerResponse, next: Next): boolean => {
    const url = below(req.url ?? '/', base);
    if (url === undefined || !market.ownsPath(url.split('?', 1)[0]!)) {
      next();
      return false;
    }
    void handleNodeRequest(market, req, res, {
      url,
      maxBodyBytes: market.maxBodyBytes,
      consumed: { rawBody: req.rawBody, body: req.body, help: RAW_BODY_HELP },
    });
    return true;
  };
}

function mount(host: HttpAdapterHost, { market, path = '/bnpl' }: BnplModuleOptions): true {
  const adapter = host.httpAdapter;
  const router = createBnplRouter(market, path);
  if (adapter.getType() === 'fastify') {
    // onRequest runs before Fastify parses the body, for every route and the 404 handler.
    (adapter.getInstance() as FastifyLike).addHook('onRequest', (request, reply, done) => {
      if (router(request.raw, reply.raw, () => undefined)) reply.hijack();
      done();
    });
  } else {
    adapter.use(router);
  }
  return true;
}

// Nest's convention for configurable modules (`XModule.forRoot()`), which users look for.
// biome-ignore lint/complexity/noStaticOnlyClass: a Nest module is a class Nest instantiates.
export class BnplModule {
  static forRoot(options: BnplModuleOptions): DynamicModule {
    return BnplModule.forRootAsync({ useFactory: () => options });
  }

  static forRootAsync(options: BnplModuleAsyncOptions): DynamicModule {
    return {
      module: BnplModule,
      imports: options.imports ?? [],
      providers: [
        { provide: OPTIONS, useFactory: options.useFactory, inject: options.inject ?? [] },
        { provide: BNPL_MARKET, useFactory: (o: BnplModuleOptions) => o.market, inject: [OPTIONS] },
        { provide: MOUNTED, useFactory: mount, inject: [HttpAdapterHost, OPTIONS] },
      ],
      exports: [BNPL_MARKET],
    };
  }
}

/**
 * A global exception filter, `app.useGlobalFilters(bnplErrorHandler({ onError }))`: any error of
 * the app (a controller that throws, an HttpException, a body parser's 413) is answered as an
 * RFC 9457 problem instead of Nest's `{ statusCode, message }`. `onError` sees 5xx causes.
 */
export function bnplErrorHandler(options: { onError?: (error: unknown) => void } = {}): ExceptionFilter {
  return {
    catch(error: unknown, host: ArgumentsHost): void {
      const kitError = kitErrorOfFramework(error);
      if (kitError.status >= 500) options.onError?.(error);
      const response = host.switchToHttp().getResponse<ServerResponse | FastifyReplyLike>();
      const res = 'raw' in response ? response.raw : response;
      if (res.headersSent) res.destroy();
      else if (!('raw' in response)) sendAnswer(res, problemAnswer(kitError));
      else {
        // Through Fastify's reply, so its hooks and logs see the answer.
        const answer = problemAnswer(kitError);
        response
          .code(answer.status)
          .headers(answer.headers)
          .send(Buffer.from(answer.body ?? []));
      }
    },
  };
}

/**
 * `createMarket`: every market endpoint of WIRE §5 as one fetch-style handler,
 * `(Request) => Promise<Response>` (Auth.js `Auth(request, config)`, tRPC `resolveResponse`).
 * Frameworks only translate to and from it; nothing here knows Node or a framework.
 */
import { KitError } from '../errors.js';
import { isSecret } from '../models/secret.js';
import { consoleLogger, type MarketLogger } from '../observability/logger.js';
import { withTraceIds } from '../observability/telemetry.js';
import { READ_FILTERED_OFFERS_SCOPE } from '../service/routes.js';
import { parseSigningKey } from '../signature/keys.js';
import { answerToResponse, type MarketAnswer, problemAnswer } from './answer.js';
import { attachAnswerer, clientAddressOf } from './body-hints.js';
import { clientKeyFromConfig } from './client-key.js';
import {
  HookFailure,
  type HookFailure as HookFailureType,
  header,
  isChosenByHook,
  type MarketDeps,
  RequestHookContext,
  type RouteContext,
} from './context.js';
import { TokenIntrospectionCache } from './introspection-cache.js';
import { observeRequests } from './observe.js';
import {
  type CreateMarketOptions,
  checkMarketOptions,
  DEFAULT_DEMO_USER,
  DEFAULT_LIMITS,
  DEFAULT_PATHS,
  type MarketConfig,
  type MarketPaths,
} from './options.js';
import { resolveServices } from './resolve-options.js';
import { DeclaredAnswers, undeclaredAnswer } from './route-guard.js';
import { decodeInput, type MarketHandler } from './route-input.js';
import {
  MARKET_ROUTES,
  type MarketOperation,
  type MarketRouteDefinition,
  marketOperationsFor,
  marketRoutePath,
} from './route-table.js';
import { type Route, Router } from './router.js';
import { bnplRedirect, demoUser } from './routes/browser.js';
import { pushClaims } from './routes/claims.js';
import { filterOffersRoute } from './routes/offers.js';
import { cancelOrder, createOrder, disburseOrder, getOrderStatus } from './routes/orders.js';
import { webhook } from './routes/webhook.js';
import type { MarketTransaction } from './store.js';

export interface HandleOptions {
  /**
   * The path the market is mounted under in a framework that does not strip it (Hono's
   * `app.route('/bnpl', …)`); it is removed before routing. Not part of the signed webhook URL:
   * `publicBaseUrl` must already include it.
   */
  basePath?: string;
}

export interface Market {
  /** Carries the same handler answering plain data (`answererOf(market.handle)`, body-hints.ts). */
  handle(request: Request, options?: HandleOptions): Promise<Response>;
  /** Whether the kit answers this path (adapters let everything else through to the app). */
  ownsPath(pathname: string): boolean;
  readonly paths: Readonly<MarketPaths>;
  /** The URL webhooks must be registered with (and are verified against). */
  readonly webhookUrl: string;
  readonly integrationMode: 'basic' | 'data-sharing';
  /** The body cap of every endpoint; Node adapters apply it while streaming, too. */
  readonly maxBodyBytes: number;
}

const REQUEST_ID = /^[A-Za-z0-9._:@/+=-]{1,128}$/;

function requestIdOf(request: Request): string {
  const given = header(request, 'x-request-id');
  return given !== null && REQUEST_ID.test(given) ? given : crypto.randomUUID();
}

/** Every operation of the route table has its handler here, typed by its entry; the compiler refuses a missing one. */
export type MarketHandlers = { [K in MarketOperation]: MarketHandler<(typeof MARKET_ROUTES)[K]> };

const HANDLERS: MarketHandlers = {
  createOrder,
  getOrderStatus,
  cancelOrder,
  disburseOrder,
  pushClaims,
  filterOffers: filterOffersRoute,
  receiveWebhook: webhook,
  // Production has no demo user at all: a 404, not a 403, so nothing hints it exists.
  getDemoUser: demoUser,
  bnplRedirect,
};

/** A route as the router holds it: its entry, its function, and what it may answer. */
interface TableRoute {
  readonly entry: MarketRouteDefinition;
  readonly run: MarketHandler;
  readonly declared: DeclaredAnswers;
}

function routesFor(paths: MarketPaths, config: MarketConfig, handlers: MarketHandlers): Route<TableRoute>[] {
  return marketOperationsFor(config.integrationMode, config.mode).map((name) => {
    const entry: MarketRouteDefinition = MARKET_ROUTES[name];
    return {
      name,
      method: entry.method,
      path: marketRoutePath(entry, paths),
      handler: { entry, run: handlers[name] as MarketHandler, declared: new DeclaredAnswers(entry) },
    };
  });
}

function pathnameOf(url: string): string {
  // A bridge or framework that built a URL from a hostile request target must not make this a 500.
  if (!URL.canParse(url)) throw new KitError('validation_failed', 'The request target is not a valid URL');
  return new URL(url).pathname;
}

function logFailure(logger: MarketLogger, error: KitError, fields: Record<string, unknown>): void {
  if (error.status >= 500) {
    const hook = (error as Partial<HookFailureType>).hook;
    logger.error({ ...fields, code: error.code, hook, err: error.cause ?? error }, error.message);
  } else if (error.status === 401 && fields.route === 'receiveWebhook') {
    // A webhook that does not verify is either an attack or a misconfiguration: worth a warning.
    logger.warn({ ...fields, code: error.code }, error.message);
  } else {
    logger.debug({ ...fields, code: error.code }, error.message);
  }
}

export function createMarket<Tx extends MarketTransaction>(options: CreateMarketOptions<Tx>): Market {
  return createMarketWith(options, HANDLERS);
}

/**
 * `createMarket` with the route functions given: for the kit's own tests of the route table's
 * guarantees (a function that answers what its entry does not declare). Not a public entry.
 */
export function createMarketWith<Tx extends MarketTransaction>(
  options: CreateMarketOptions<Tx>,
  handlers: MarketHandlers,
): Market {
  const paths: MarketPaths = { ...DEFAULT_PATHS, ...options.paths };
  checkMarketOptions(options as unknown as CreateMarketOptions<MarketTransaction>, paths);
  const { config } = options;
  if (config.appSigningKey !== undefined) {
    // Fail at start-up, not at the first push, when the key cannot be parsed.
    parseSigningKey(isSecret(config.appSigningKey) ? config.appSigningKey.reveal() : config.appSigningKey);
  }
  const clock = options.now ?? (() => Date.now());
  const now = () => {
    const value = clock();
    return typeof value === 'number' ? value : value.getTime();
  };
  const logger = withTraceIds(options.logger ?? consoleLogger);
  const { service, webhookKeys, webhookUrl } = resolveServices(
    options,
    `${paths.prefix}${paths.webhook}`,
    now,
  );
  const limits = { ...DEFAULT_LIMITS, ...options.limits };
  const clientKey = options.clientKey ?? clientKeyFromConfig(config);
  const deps: MarketDeps<Tx> = {
    config,
    hooks: options.hooks,
    service,
    store: options.store,
    logger,
    now,
    paths,
    limits,
    onUnknownEvent: options.onUnknownEvent,
    demoUser: options.demoUser ?? { ...DEFAULT_DEMO_USER },
    webhookUrl,
    webhookKeys,
    introspection: new TokenIntrospectionCache(service, now, {
      scope: READ_FILTERED_OFFERS_SCOPE,
      negativeTtlMs: limits.inactiveTokenTtlMs,
      burst: limits.introspectionBurst,
      refillPerSecond: limits.introspectionPerSecond,
    }),
    clientKey: (request) => (clientKey ? clientKey(request) : clientAddressOf(request)) ?? '',
  };
  const genericDeps = deps as unknown as MarketDeps<MarketTransaction>;
  const router = new Router(routesFor(paths, config, handlers), paths.prefix);
  const sandbox = config.mode === 'sandbox';

  /** Logs an answer the route's entry does not declare; true when it must be replaced (route-guard.ts). */
  function breach(what: string, fields: Record<string, unknown>): boolean {
    logger.error(
      { ...fields, answered: what },
      'the route answered what its route table entry does not declare',
    );
    return sandbox;
  }

  async function respond(request: Request, handleOptions?: HandleOptions): Promise<MarketAnswer> {
    const requestId = requestIdOf(request);
    let pathname = '/';
    let route: string | undefined;
    let table: TableRoute | undefined;
    let answer: MarketAnswer;
    try {
      pathname = pathnameOf(request.url);
      const base = handleOptions?.basePath?.replace(/\/+$/, '') ?? '';
      if (base !== '') pathname = pathname.startsWith(`${base}/`) ? pathname.slice(base.length) : '/';
      const match = router.match(request.method, pathname);
      if (match.kind === 'none') throw new KitError('not_found', `No endpoint at ${pathname}`);
      if (match.kind === 'wrong_method') {
        const allow = match.allow.join(', ');
        throw new KitError('method_not_allowed', `${request.method} is not allowed here; use ${allow}`, {
          headers: { allow },
        });
      }
      route = match.route.name;
      table = match.route.handler;
      const hookContext = new RequestHookContext(requestId, request, logger);
      const ctx: RouteContext = {
        request,
        params: match.params,
        requestId,
        hookContext,
        deps: genericDeps,
      };
      answer = await table.run(await decodeInput(table.entry, ctx), ctx);
      const undeclared = table.declared.undeclaredStatus(answer);
      if (undeclared !== undefined && breach(undeclared, { requestId, route })) {
        answer = problemAnswer(undeclaredAnswer(route, undeclared));
      }
    } catch (thrown) {
      let error = KitError.fromUnknown(thrown);
      const fields = { requestId, method: request.method, path: pathname, route };
      // Nobody is waiting for this answer; an aborted upstream call is not the service's fault.
      if (request.signal.aborted) logger.debug({ ...fields, code: error.code }, 'client went away');
      else logFailure(logger, error, fields);
      const undeclared = table?.declared.undeclaredProblem(error);
      if (undeclared !== undefined) {
        if (isChosenByHook(error)) {
          logger.warn(
            { ...fields, answered: undeclared },
            'a hook answered a problem the route does not declare',
          );
        } else if (breach(undeclared, fields)) {
          error = undeclaredAnswer(route!, undeclared);
        }
      }
      answer = problemAnswer(error);
    }
    answer.headers['x-request-id'] = requestId;
    answer.route = route;
    return answer;
  }

  const observed = observeRequests(respond);
  const handle = attachAnswerer(
    async (request: Request, options?: HandleOptions) => answerToResponse(await observed(request, options)),
    observed,
  );

  return {
    handle,
    paths,
    webhookUrl,
    integrationMode: config.integrationMode,
    maxBodyBytes: deps.limits.maxBodyBytes,
    ownsPath: (pathname) => router.owns(pathname),
  };
}

export { HookFailure };

/**
 * What a route handler gets: the request, its ID, the path parameters and the market's
 * dependencies, plus `callHook`, the one place where market code is called. It turns a hook that
 * throws into a logged 500 (a `KitError` thrown on purpose passes through) and a hook that never
 * settles into a 500 after `hookTimeoutMs`, so no request can hang on market code.
 */
import { KitError } from '../errors.js';
import type { ServiceClient } from '../service/types.js';
import type { MarketAnswer } from './answer.js';
import type { HookContext, MarketHooks, Principal, UnknownEventHandler } from './hooks.js';
import type { TokenIntrospectionCache } from './introspection-cache.js';
import type { MarketLogger } from './logger.js';
import type { MarketConfig, MarketLimits, MarketPaths } from './options.js';
import type { MarketStore, MarketTransaction } from './store.js';
import type { WebhookKeySource } from './webhook-keys.js';

export interface MarketDeps<Tx extends MarketTransaction = MarketTransaction> {
  config: MarketConfig;
  hooks: MarketHooks<Tx>;
  service: ServiceClient;
  store: MarketStore<Tx>;
  logger: MarketLogger;
  /** Epoch milliseconds. */
  now: () => number;
  paths: MarketPaths;
  limits: MarketLimits;
  onUnknownEvent: UnknownEventHandler<Tx> | undefined;
  demoUser: Record<string, unknown>;
  /** The URL the service signs webhooks for: publicBaseUrl + prefix + webhook path. */
  webhookUrl: string;
  webhookKeys: WebhookKeySource;
  introspection: TokenIntrospectionCache;
  /** Who is calling, for per-client bounds (the peer address unless the market says otherwise). */
  clientKey: (request: Request) => string;
}

export interface RouteContext<Tx extends MarketTransaction = MarketTransaction> {
  request: Request;
  params: Record<string, string>;
  requestId: string;
  hookContext: HookContext;
  deps: MarketDeps<Tx>;
}

export type RouteHandler = (ctx: RouteContext<MarketTransaction>) => Promise<MarketAnswer>;

/**
 * The `HookContext` of one request. A class on purpose, not an object literal with a `signal`
 * getter: V8 tracks object literals by allocation site and decided to pretenure that one
 * (`--trace-pretenuring-statistics`), so each request's context was born in old space and kept the
 * young request graph it points to alive through scavenges. Under load that promoted about 1 KB
 * per request and made every scavenge four times longer (see bench/profile-adapters.ts).
 */
export class RequestHookContext implements HookContext {
  constructor(
    readonly requestId: string,
    readonly request: Request,
    readonly logger: MarketLogger,
  ) {}

  /** Read on first use: most requests never look at it, and a Request may build its signal lazily. */
  get signal(): AbortSignal {
    return this.request.signal;
  }
}

/**
 * A hook failed. The hook's name goes to the log line, never into the problem document: a 500
 * says nothing about the market's internals.
 */
export class HookFailure extends KitError {
  readonly hook: string;
  constructor(hook: string, cause: unknown, message = `Hook ${hook} failed`) {
    super('internal', message, { cause });
    this.hook = hook;
  }
}

function asHookFailure(name: string, error: unknown): KitError {
  return error instanceof KitError ? error : new HookFailure(name, error);
}

export function callHook<T>(
  ctx: RouteContext<MarketTransaction>,
  name: string,
  run: () => Promise<T> | T,
): Promise<T> {
  let result: Promise<T> | T;
  try {
    result = run();
  } catch (error) {
    return Promise.reject(asHookFailure(name, error));
  }
  // A hook that answered synchronously cannot hang: no timer needed.
  if (typeof (result as { then?: unknown } | null)?.then !== 'function') return Promise.resolve(result as T);
  return settleWithin(result as PromiseLike<T>, name, ctx.deps.limits.hookTimeoutMs);
}

// One promise and one timer per hook call, without an async frame or a `Promise.race` (which would
// add a second promise that never settles): this runs on every webhook.
function settleWithin<T>(pending: PromiseLike<T>, name: string, timeoutMs: number): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new HookFailure(name, new Error(`did not settle within ${timeoutMs} ms`))),
      timeoutMs,
    );
    Promise.resolve(pending).then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (error: unknown) => {
        clearTimeout(timer);
        reject(asHookFailure(name, error));
      },
    );
  });
}

/** 401 with a challenge, so a client knows which scheme to retry with. */
export function unauthenticated(message: string): KitError {
  return new KitError('unauthenticated', message, { headers: { 'www-authenticate': 'Bearer' } });
}

export async function authenticateClient(ctx: RouteContext<MarketTransaction>): Promise<Principal> {
  const { hooks } = ctx.deps;
  const principal = await callHook(ctx, 'authenticateInternalAPIClient', () =>
    hooks.authenticateInternalAPIClient(ctx.request, ctx.hookContext),
  );
  if (!principal)
    throw unauthenticated('This endpoint is for the market’s own systems; credentials missing or invalid');
  return principal;
}

export async function authenticateUser(ctx: RouteContext<MarketTransaction>): Promise<Principal> {
  const { hooks } = ctx.deps;
  const principal = await callHook(ctx, 'authenticateInternalUser', () =>
    hooks.authenticateInternalUser(ctx.request, ctx.hookContext),
  );
  if (!principal) throw unauthenticated('Sign in first: user credentials missing or invalid');
  return principal;
}

export { jsonAnswer as json } from './answer.js';

export { readHeader as header } from './body-hints.js';

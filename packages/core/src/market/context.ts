/**
 * What a route handler gets: the request, its ID, the path parameters and the market's
 * dependencies, plus `callHook`, the one place where market code is called. It turns a hook that
 * throws into a logged 500 (a `KitError` thrown on purpose passes through) and a hook that never
 * settles into a 500 after `hookTimeoutMs`, so no request can hang on market code.
 */
import { KitError } from '../errors.js';
import type { MarketLogger } from '../observability/logger.js';
import type { ServiceClient } from '../service/types.js';
import type { HookContext, MarketHooks, UnknownEventHandler } from './hooks.js';
import type { TokenIntrospectionCache } from './introspection-cache.js';
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
  demoUser: Record<string, unknown> | (() => Promise<Record<string, unknown>> | Record<string, unknown>);
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

/**
 * The `HookContext` of one request. A class on purpose, not an object literal with a `signal`
 * getter: V8 may pretenure an object literal by its allocation site, and a long-lived context would
 * keep each request's young objects alive (measured in docs/capacity.md, "Allocation on the hot path").
 */
export class RequestHookContext implements HookContext {
  /** Made on first use of `signal` or on a timeout: most requests need neither. */
  #controller: AbortController | undefined;

  constructor(
    readonly requestId: string,
    readonly request: Request,
    readonly logger: MarketLogger,
  ) {}

  /**
   * Aborted when the client goes away or when a hook of this request outlives `hookTimeoutMs`: the
   * request has failed then, and a hook still running must stop using what it was given (its `tx`
   * is rolled back). Read on first use: most requests never look at it.
   */
  get signal(): AbortSignal {
    return this.#abortController().signal;
  }

  /** A hook of this request did not settle in time: whatever still runs for it is told to stop. */
  hookTimedOut(reason: Error): void {
    this.#abortController().abort(reason);
  }

  #abortController(): AbortController {
    let controller = this.#controller;
    if (controller === undefined) {
      controller = new AbortController();
      this.#controller = controller;
      const requestSignal = this.request.signal;
      if (requestSignal.aborted) controller.abort(requestSignal.reason);
      else {
        const own = controller;
        requestSignal.addEventListener('abort', () => own.abort(requestSignal.reason), { once: true });
      }
    }
    return controller;
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

/** KitErrors market code threw on purpose: its own choice of answer (route-guard.ts). */
const chosenByHook = new WeakSet<KitError>();

function asHookFailure(name: string, error: unknown): KitError {
  if (!(error instanceof KitError)) return new HookFailure(name, error);
  if (!(error instanceof HookFailure)) chosenByHook.add(error);
  return error;
}

/** Whether a hook threw this KitError on purpose (rather than the kit answering it). */
export function isChosenByHook(error: KitError): boolean {
  return chosenByHook.has(error);
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
  return settleWithin(result as PromiseLike<T>, name, ctx.deps.limits.hookTimeoutMs, ctx.hookContext);
}

// One promise and one timer per hook call, without an async frame or a `Promise.race` (which would
// add a second promise that never settles): this runs on every webhook.
function settleWithin<T>(
  pending: PromiseLike<T>,
  name: string,
  timeoutMs: number,
  hookContext: HookContext,
): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => {
      const late = new Error(`did not settle within ${timeoutMs} ms`);
      if (hookContext instanceof RequestHookContext) hookContext.hookTimedOut(late);
      reject(new HookFailure(name, late));
    }, timeoutMs);
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

export { jsonAnswer as json } from './answer.js';

export { readHeader as header } from './body-hints.js';

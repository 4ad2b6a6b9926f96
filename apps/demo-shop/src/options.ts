/** What `createDemoShopHandler` takes, checked once at start-up with every problem reported together. */

/** A signed-in shop user; `sessionToken` is what the market's `authenticateInternalUser` accepts. */
export interface DemoUser {
  id: string;
  sessionToken: string;
  name: string;
  firstName?: string | undefined;
  lastName?: string | undefined;
  email?: string | undefined;
  phoneNumber?: string | undefined;
  countryCode?: string | undefined;
}

/** Anything that answers fetch-style requests: the kit's `Market`, or a framework app. */
export interface FetchHandlerLike {
  handle(request: Request): Promise<Response>;
}

/** Where the shop reads an order's status: the market's own store, kept current by webhooks. */
export interface OrderStatusSource {
  findOrderById(id: string): Promise<{ status: string } | undefined>;
}

export interface DemoShopOptions {
  /** The market in-process (`createMarket(...)`), or … */
  market?: FetchHandlerLike;
  /** … the market backend over HTTP, e.g. `http://127.0.0.1:3000`. */
  marketBaseUrl?: string;
  /** Path prefix of the market endpoints; default `/v1`. */
  marketPrefix?: string;
  /** Bearer token of the market's own systems (`MARKET_API_TOKEN`): used server-side only. */
  marketApiToken: string;
  /** The market's integration mode: data-sharing pushes claims when the BNPL page asks. */
  mode: 'basic' | 'data-sharing';
  /** The SDK's `serviceUrl`: absolute, or a path on this origin (e.g. `/sandbox-service`). */
  serviceUrl: string;
  /** The SDK's `apiKey` (a key with `claim_provider`; the SDK sends it to the service only). */
  apiKey: string;
  appName?: string;
  env?: 'sandbox' | 'production';
  /** The organisation ID, for the passport page. */
  marketId: string;
  /**
   * The users one may sign in as: a list, a function asked on every sign-in (e.g. reading a store),
   * or by default the market's sandbox-only `GET {prefix}/demo-user` (the demo-user contract).
   */
  demoUsers?: DemoUser[] | (() => Promise<DemoUser[]>);
  /** Default: the market's `GET {prefix}/orders/service/:id`, which asks the service. */
  orderStatus?: OrderStatusSource;
  /** Base of product image and page URLs in orders; default the request's origin. */
  publicBaseUrl?: string;
  /** The storefront's browser bundle; default: built with esbuild on first request, then cached. */
  bundle?: () => Promise<string>;
  /** For calls to `marketBaseUrl`; default global fetch. */
  fetch?: typeof fetch;
}

export function checkDemoShopOptions(options: DemoShopOptions): void {
  const problems: string[] = [];
  if (!options.market === !options.marketBaseUrl)
    problems.push('give exactly one of market or marketBaseUrl');
  if (options.marketBaseUrl !== undefined && !/^https?:\/\/[^/]/.test(options.marketBaseUrl)) {
    problems.push('marketBaseUrl must be an absolute http(s) URL');
  }
  if (!options.marketApiToken) problems.push('marketApiToken is required');
  if (options.mode !== 'basic' && options.mode !== 'data-sharing') {
    problems.push('mode must be "basic" or "data-sharing"');
  }
  if (!options.serviceUrl || !/^(https?:\/\/[^/]|\/)/.test(options.serviceUrl)) {
    problems.push('serviceUrl must be an absolute http(s) URL or a path starting with "/"');
  }
  if (!options.apiKey) problems.push('apiKey is required');
  if (!options.marketId) problems.push('marketId is required');
  if (Array.isArray(options.demoUsers) && options.demoUsers.length === 0) {
    problems.push('demoUsers must not be empty when given');
  }
  if (problems.length > 0) throw new Error(`createDemoShopHandler: ${problems.join('; ')}`);
}

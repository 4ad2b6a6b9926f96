/**
 * `createDemoShopHandler`: the demo storefront as one fetch handler, `(Request) => Promise<Response>`,
 * meant to be mounted at a reference server's root next to the market (`/v1/...`) and the embedded
 * sandbox. It serves the page and its assets, and the shop backend under `/shop/...`: a demo sign-in,
 * checkout (which creates the order through the market's `POST /v1/orders` with the market API token,
 * server-side), and the user's orders with their status as the market's webhooks update it.
 *
 * A demo, not a pattern for production sign-in: any visitor may sign in as any demo user.
 */
import { KitError } from '@bnpl-kit/core';
import { problemResponse } from '@bnpl-kit/core/wire';
import { CartError, orderFromCart, PRODUCTS, productById, productSvg } from './catalogue.js';
import { bearerToken, jsonResponse, readJson } from './http.js';
import { createMarketClient, MarketError } from './market-client.js';
import { checkDemoShopOptions, type DemoShopOptions, type DemoUser } from './options.js';
import { type BrowserConfig, renderStorefront, storefrontCsp } from './page.js';
import { orderView, type ShopOrder, ShopOrders } from './shop-orders.js';

export interface DemoShopHandler {
  handle(request: Request): Promise<Response>;
  /** Whether the shop answers this path (`/`, `/assets/...`, `/shop/...`). */
  ownsPath(pathname: string): boolean;
}

const FINAL = new Set(['PAID', 'CANCELED']);

function userView(user: DemoUser): Record<string, unknown> {
  return {
    id: user.id,
    name: user.name,
    first_name: user.firstName ?? null,
    last_name: user.lastName ?? null,
    email: user.email ?? null,
    phone_number: user.phoneNumber ?? null,
    country_code: user.countryCode ?? null,
  };
}

function marketFailure(error: unknown): unknown {
  if (!(error instanceof MarketError)) return error;
  const code = error.status === 503 || error.status === 504 ? 'upstream_unavailable' : 'upstream_rejected';
  return new KitError(code, `The market refused: ${error.message}`);
}

export function createDemoShopHandler(options: DemoShopOptions): DemoShopHandler {
  checkDemoShopOptions(options);
  const market = createMarketClient(options);
  const orders = new ShopOrders();
  const config: BrowserConfig = {
    appName: options.appName ?? 'Demo Shop',
    apiKey: options.apiKey,
    env: options.env ?? 'sandbox',
    serviceUrl: options.serviceUrl.replace(/\/+$/, ''),
    mode: options.mode,
    marketId: options.marketId,
    marketPrefix: options.marketPrefix ?? '/v1',
  };
  let users: Promise<DemoUser[]> | undefined;
  const demoUsers = (): Promise<DemoUser[]> => {
    const given = options.demoUsers;
    if (typeof given === 'function') return given();
    users ??= given
      ? Promise.resolve(given)
      : market.demoUsers().catch((error: unknown) => {
          users = undefined; // the market may not be up yet: ask again next time
          throw error;
        });
    return users;
  };
  let script: Promise<string> | undefined;
  const bundle = () => {
    script ??= (options.bundle ?? (async () => (await import('./bundle.js')).bundleStorefront()))();
    script.catch(() => {
      script = undefined;
    });
    return script;
  };

  async function signedIn(request: Request): Promise<DemoUser> {
    const token = bearerToken(request);
    const user = token === undefined ? undefined : (await demoUsers()).find((u) => u.sessionToken === token);
    if (!user) throw new KitError('unauthenticated', 'Sign in first (Authorization: Bearer <session token>)');
    return user;
  }

  /** The order with its current status from the market's store (webhook-driven) or the market API. */
  async function refreshed(order: ShopOrder): Promise<ShopOrder> {
    if (FINAL.has(order.status)) return order;
    try {
      const current = options.orderStatus
        ? (await options.orderStatus.findOrderById(order.id))?.status
        : await market.orderStatus(order.id);
      if (current) order.status = current;
    } catch {
      // The last known status is still the best answer; the next poll asks again.
    }
    return order;
  }

  async function checkout(request: Request): Promise<Response> {
    const user = await signedIn(request);
    const body = await readJson(request);
    const items = Array.isArray(body.items) ? body.items : [];
    const cart = items.map((item: { product_id?: unknown; quantity?: unknown }) => ({
      productId: String(item?.product_id ?? ''),
      quantity: Number(item?.quantity),
    }));
    const baseUrl = (options.publicBaseUrl ?? new URL(request.url).origin).replace(/\/+$/, '');
    const referenceId = `shop-${Date.now().toString(36)}-${crypto.randomUUID().slice(0, 8)}`;
    let order: ReturnType<typeof orderFromCart>;
    try {
      order = orderFromCart(cart, referenceId, baseUrl);
    } catch (error) {
      if (error instanceof CartError) throw new KitError('validation_failed', error.message);
      throw error;
    }
    const record = await market.createOrder(order);
    orders.add({
      id: record.id,
      userId: user.id,
      referenceId: record.reference_id,
      totalAmount: record.totalAmount,
      lines: order.orderLines.map((l) => ({ productId: l.referenceId, name: l.name, quantity: l.quantity })),
      createdAt: new Date().toISOString(),
      status: record.status,
    });
    // The market's order record, as the SDK wants it: `id` and `totalAmount`.
    return jsonResponse({ order: record }, 201);
  }

  async function route(request: Request, path: string): Promise<Response> {
    const method = request.method;
    if (method === 'GET' && (path === '/' || path === '/index.html')) {
      return new Response(renderStorefront(config), {
        headers: {
          'content-type': 'text/html; charset=utf-8',
          'content-security-policy': storefrontCsp(config),
          'cache-control': 'no-store',
          'x-content-type-options': 'nosniff',
          'referrer-policy': 'same-origin',
        },
      });
    }
    if (method === 'GET' && path === '/assets/shop.js') {
      return new Response(await bundle(), {
        headers: { 'content-type': 'text/javascript; charset=utf-8', 'cache-control': 'no-cache' },
      });
    }
    const image = /^\/assets\/products\/([a-z0-9-]+)\.svg$/.exec(path);
    if (method === 'GET' && image) {
      const product = productById(image[1]!);
      if (!product) throw new KitError('not_found', 'No such product');
      return new Response(productSvg(product), {
        headers: { 'content-type': 'image/svg+xml', 'cache-control': 'public, max-age=3600' },
      });
    }
    if (method === 'GET' && path === '/shop/products') {
      return jsonResponse({ products: PRODUCTS.map((p) => ({ id: p.id, name: p.name, price: p.price })) });
    }
    if (method === 'GET' && path === '/shop/users') {
      return jsonResponse({ users: (await demoUsers()).map(userView) });
    }
    if (method === 'POST' && path === '/shop/login') {
      const body = await readJson(request);
      const user = (await demoUsers()).find((u) => u.id === body.user_id);
      if (!user) throw new KitError('user_not_found', 'No demo user with that id');
      return jsonResponse({ user: userView(user), session_token: user.sessionToken });
    }
    if (method === 'POST' && path === '/shop/checkout') return checkout(request);
    if (method === 'GET' && path === '/shop/orders') {
      const user = await signedIn(request);
      const mine = await Promise.all(orders.ofUser(user.id).map(refreshed));
      return jsonResponse({ orders: mine.map(orderView) });
    }
    const one = /^\/shop\/orders\/([^/]+)$/.exec(path);
    if (method === 'GET' && one) {
      const user = await signedIn(request);
      const order = orders.get(decodeURIComponent(one[1]!), user.id);
      if (!order) throw new KitError('order_not_found', 'No such order of yours');
      return jsonResponse({ order: orderView(await refreshed(order)) });
    }
    throw new KitError('not_found', `Nothing at ${method} ${path}`);
  }

  return {
    ownsPath: (pathname) =>
      pathname === '/' ||
      pathname === '/index.html' ||
      pathname.startsWith('/assets/') ||
      pathname.startsWith('/shop/'),
    async handle(request) {
      try {
        return await route(request, new URL(request.url).pathname);
      } catch (error) {
        return problemResponse(marketFailure(error));
      }
    },
  };
}

/**
 * `createDemoShopHandler`: the demo storefront as one fetch handler, `(Request) => Promise<Response>`,
 * meant to be mounted at a reference server's root next to the market (`/v1/...`) and the embedded
 * sandbox. It serves the page and its assets, and the shop backend under `/shop/...`: a demo sign-in,
 * checkout (which creates the order through the market's `POST /v1/orders` with the market API token,
 * server-side), and the user's orders with their status as the market's webhooks update it.
 * The routes are in `routes/table.ts`.
 *
 * A demo, not a pattern for production sign-in: any visitor may sign in as any demo user.
 */
import { KitError } from '@bnpl-kit/core';
import { problemResponse, Router } from '@bnpl-kit/core/wire';
import { MarketError } from './market-client.js';
import { checkDemoShopOptions, type DemoShopOptions } from './options.js';
import type { ShopRouteHandler } from './routes/route.js';
import { SHOP_ROUTES } from './routes/table.js';
import { createShopState } from './shop-state.js';

export interface DemoShopHandler {
  handle(request: Request): Promise<Response>;
  /** Whether the shop answers this path (`/`, `/assets/...`, `/shop/...`). */
  ownsPath(pathname: string): boolean;
}

function marketFailure(error: unknown): unknown {
  if (!(error instanceof MarketError)) return error;
  const code = error.status === 503 || error.status === 504 ? 'upstream_unavailable' : 'upstream_rejected';
  return new KitError(code, `The market refused: ${error.message}`);
}

export function createDemoShopHandler(options: DemoShopOptions): DemoShopHandler {
  checkDemoShopOptions(options);
  const shop = createShopState(options);
  const router = new Router<ShopRouteHandler>(SHOP_ROUTES, '');

  async function route(request: Request): Promise<Response> {
    const path = new URL(request.url).pathname;
    const match = router.match(request.method, path);
    // A known path with another method is as unknown to the shop as a missing one.
    if (match.kind !== 'found') throw new KitError('not_found', `Nothing at ${request.method} ${path}`);
    return match.route.handler(shop, request, match.params);
  }

  return {
    ownsPath: (pathname) =>
      pathname === '/' ||
      pathname === '/index.html' ||
      pathname.startsWith('/assets/') ||
      pathname.startsWith('/shop/'),
    async handle(request) {
      try {
        return await route(request);
      } catch (error) {
        return problemResponse(marketFailure(error));
      }
    },
  };
}

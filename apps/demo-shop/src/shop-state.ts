/**
 * What the shop's routes share: the browser config, the market client, the shop's own orders, and
 * the lazily fetched demo users and browser bundle (each retried after a failure).
 */
import { KitError } from '@bnpl-kit/core';
import { bearerToken } from './http.js';
import { createMarketClient, type MarketClient } from './market-client.js';
import type { DemoShopOptions, DemoUser } from './options.js';
import type { BrowserConfig } from './page.js';
import { type ShopOrder, ShopOrders } from './shop-orders.js';

export interface ShopState {
  options: DemoShopOptions;
  config: BrowserConfig;
  market: MarketClient;
  orders: ShopOrders;
  demoUsers(): Promise<DemoUser[]>;
  bundle(): Promise<string>;
  /** The demo user whose session token the request carries; `unauthenticated` otherwise. */
  signedIn(request: Request): Promise<DemoUser>;
  /** The order with its current status from the market's store (webhook-driven) or the market API. */
  refreshed(order: ShopOrder): Promise<ShopOrder>;
}

const FINAL = new Set(['PAID', 'CANCELED']);

function browserConfig(options: DemoShopOptions): BrowserConfig {
  return {
    appName: options.appName ?? 'Demo Shop',
    apiKey: options.apiKey,
    env: options.env ?? 'sandbox',
    serviceUrl: options.serviceUrl.replace(/\/+$/, ''),
    mode: options.mode,
    marketId: options.marketId,
    marketPrefix: options.marketPrefix ?? '/v1',
  };
}

export function createShopState(options: DemoShopOptions): ShopState {
  const market = createMarketClient(options);
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

  return {
    options,
    config: browserConfig(options),
    market,
    orders: new ShopOrders(),
    demoUsers,
    bundle,
    async signedIn(request) {
      const token = bearerToken(request);
      const user =
        token === undefined ? undefined : (await demoUsers()).find((u) => u.sessionToken === token);
      if (!user)
        throw new KitError('unauthenticated', 'Sign in first (Authorization: Bearer <session token>)');
      return user;
    },
    async refreshed(order) {
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
    },
  };
}

/**
 * @bnpl-kit/demo-shop: a storefront that pays later through `@bnpl-kit/web`, as a fetch handler the
 * reference servers mount at their root.
 */
export { PRODUCTS, type Product } from './catalogue.js';
export { createDemoShopHandler, type DemoShopHandler } from './handler.js';
export { demoUsersFrom } from './market-client.js';
export type { DemoShopOptions, DemoUser, FetchHandlerLike, OrderStatusSource } from './options.js';

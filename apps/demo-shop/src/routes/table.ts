/** Every path the shop answers, matched by core's router (`:name` segments are decoded params). */
import type { Route } from '@bnpl-kit/core/wire';
import { productImage, storefrontPage, storefrontScript } from './assets.js';
import { checkout, getOrder, listOrders } from './orders.js';
import type { ShopRouteHandler } from './route.js';
import { listProducts, listUsers, login } from './session.js';

export const SHOP_ROUTES: readonly Route<ShopRouteHandler>[] = [
  { name: 'page', method: 'GET', path: '/', handler: storefrontPage },
  { name: 'page', method: 'GET', path: '/index.html', handler: storefrontPage },
  { name: 'script', method: 'GET', path: '/assets/shop.js', handler: storefrontScript },
  { name: 'productImage', method: 'GET', path: '/assets/products/:file', handler: productImage },
  { name: 'products', method: 'GET', path: '/shop/products', handler: listProducts },
  { name: 'users', method: 'GET', path: '/shop/users', handler: listUsers },
  { name: 'login', method: 'POST', path: '/shop/login', handler: login },
  { name: 'checkout', method: 'POST', path: '/shop/checkout', handler: checkout },
  { name: 'orders', method: 'GET', path: '/shop/orders', handler: listOrders },
  { name: 'order', method: 'GET', path: '/shop/orders/:id', handler: getOrder },
];

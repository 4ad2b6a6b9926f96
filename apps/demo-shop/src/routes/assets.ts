/** The storefront page, its browser bundle and the product pictures. */
import { KitError } from '@bnpl-kit/core';
import { productById, productSvg } from '../catalogue.js';
import { renderStorefront, storefrontCsp } from '../page.js';
import type { ShopRouteHandler } from './route.js';

export const storefrontPage: ShopRouteHandler = async ({ config }) =>
  new Response(renderStorefront(config), {
    headers: {
      'content-type': 'text/html; charset=utf-8',
      'content-security-policy': storefrontCsp(config),
      'cache-control': 'no-store',
      'x-content-type-options': 'nosniff',
      'referrer-policy': 'same-origin',
    },
  });

export const storefrontScript: ShopRouteHandler = async ({ bundle }) =>
  new Response(await bundle(), {
    headers: { 'content-type': 'text/javascript; charset=utf-8', 'cache-control': 'no-cache' },
  });

export const productImage: ShopRouteHandler = async (_shop, request, params) => {
  const id = /^([a-z0-9-]+)\.svg$/.exec(params.file ?? '')?.[1];
  if (id === undefined) throw new KitError('not_found', `Nothing at GET ${new URL(request.url).pathname}`);
  const product = productById(id);
  if (!product) throw new KitError('not_found', 'No such product');
  return new Response(productSvg(product), {
    headers: { 'content-type': 'image/svg+xml', 'cache-control': 'public, max-age=3600' },
  });
};
